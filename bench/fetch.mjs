#!/usr/bin/env node
// How the indexer should read Pearl blocks, measured: (a) one `getblock <hash> 0` per block, decoded here
// (certificate, header, transactions), or (b) `getblock <hash> 2` (pearld's verbose JSON, transactions under
// `rawtx`) paired with `getblock <hash> 0` for the certificate, which no JSON carries. A devnet in its own
// process serves both; rounds alternate the two paths so machine noise falls on both alike.
// usage: node bench/fetch.mjs [--blocks 2000] [--tx-per-block 10] [--rounds 3] [--out bench/out/fetch.json]
// Needs a built workspace (pnpm build).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { decodePearlBlock } from '../packages/chain/dist/index.js';
import { silentLogger } from '../packages/core/dist/index.js';
import { createNodeClient, detectChain, parseBlock } from '../packages/indexer/dist/index.js';
import { startDevnetProcess } from './devnet.mjs';
import { procCpu } from './lib.mjs';
import { machineInfo } from './machine.mjs';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '2000' },
    'tx-per-block': { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    out: { type: 'string', default: 'bench/out/fetch.json' },
  },
});
const blocks = Number(values.blocks);
const rounds = Number(values.rounds);

console.error(`bench/fetch: generating a Pearl devnet of ${blocks} blocks in a child process…`);
const { proc: devnet, info } = await startDevnetProcess([
  '--seed',
  'fetch',
  '--blocks',
  String(blocks),
  '--tx-per-block',
  values['tx-per-block'],
]);

const node = createNodeClient({ url: info.url, timeoutMs: 120_000 });
const profile = await detectChain(node, {}, silentLogger);
const BATCH = 25;
const heights = Array.from({ length: blocks }, (_, i) => i + 1);
const hashes = [];
for (let i = 0; i < heights.length; i += 500)
  hashes.push(
    ...(await node.batch(heights.slice(i, i + 500).map((h) => ({ method: 'getblockhash', params: [h] })))),
  );

/** (a) What the indexer does: the profile's own fetch, from the bytes. */
async function viaBytes() {
  let bytes = 0;
  let txs = 0;
  for (let i = 0; i < heights.length; i += BATCH) {
    const part = heights.slice(i, i + BATCH);
    const hs = hashes.slice(i, i + BATCH);
    const parsed = await profile.fetchBlocks(node, part, hs, i === 0 ? null : hashes[i - 1]);
    for (const b of parsed) {
      bytes += b.size * 2;
      txs += b.txs.length;
    }
  }
  return { bytes, txs };
}

/** (b) The verbose JSON for the transactions, the bytes for the certificate and header. */
async function viaJson() {
  let bytes = 0;
  let txs = 0;
  for (let i = 0; i < heights.length; i += BATCH) {
    const hs = hashes.slice(i, i + BATCH);
    const [verbose, raw] = await Promise.all([
      node.batch(hs.map((h) => ({ method: 'getblock', params: [h, 2] }))),
      node.batch(hs.map((h) => ({ method: 'getblock', params: [h, 0] }))),
    ]);
    verbose.forEach((v, j) => {
      bytes += JSON.stringify(v).length + raw[j].length;
      const { rawtx, ...rest } = v;
      const parsed = parseBlock({ ...rest, tx: rawtx });
      decodePearlBlock(Buffer.from(raw[j], 'hex'), hs[j]);
      txs += parsed.txs.length;
    });
  }
  return { bytes, txs };
}

const results = { bytes: [], json: [] };
for (let r = 0; r < rounds; r++) {
  for (const [name, fn] of [
    ['bytes', viaBytes],
    ['json', viaJson],
  ]) {
    const cpu0 = process.cpuUsage();
    const node0 = procCpu(devnet.pid);
    const t0 = performance.now();
    const { bytes, txs } = await fn();
    const seconds = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(cpu0);
    results[name].push({
      seconds,
      txPerSecond: txs / seconds,
      indexerCpuSeconds: (c.user + c.system) / 1e6,
      nodeCpuSeconds: procCpu(devnet.pid) - node0,
      megabytes: bytes / 1e6,
      txs,
    });
    console.error(`bench/fetch: round ${r + 1} ${name}: ${Math.round(txs / seconds)} tx/s`);
  }
}
devnet.kill('SIGTERM');

const best = (rs) => rs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
const summary = (rs) => {
  const b = best(rs);
  return {
    txPerSecond: Math.round(b.txPerSecond),
    seconds: Math.round(b.seconds * 100) / 100,
    indexerCpuSeconds: Math.round(b.indexerCpuSeconds * 100) / 100,
    nodeCpuSeconds: Math.round(b.nodeCpuSeconds * 100) / 100,
    megabytesFromNode: Math.round(b.megabytes * 10) / 10,
  };
};
const out = {
  date: new Date().toISOString(),
  machine: machineInfo(),
  command: `node bench/fetch.mjs --blocks ${blocks} --tx-per-block ${values['tx-per-block']} --rounds ${rounds}`,
  chain: { blocks, txs: results.bytes[0].txs },
  rpcCallsPerBlock: { bytes: 1, json: 2 },
  bytes: summary(results.bytes),
  json: summary(results.json),
  note: 'best of the rounds; node CPU is the devnet’s (JavaScript), not pearld’s, so compare the indexer side and the bytes moved',
};
out.bytesOverJson = Math.round((out.bytes.txPerSecond / out.json.txPerSecond) * 100) / 100;
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, `${JSON.stringify(out, null, 2)}\n`);
console.log(JSON.stringify(out, null, 2));
