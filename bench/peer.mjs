#!/usr/bin/env node
// The node as a peer, in the same run: a Litecoin Core regtest node (Debian's litecoind) builds a chain with a
// busy address, the indexer writes it into PostgreSQL, and the explorer's API serves it. Then:
//   GET /v1/blocks/{hash}              against  getblock <hash> 2      (throughput at fixed concurrency)
//   GET /v1/addresses/{a}/utxos        against  scantxoutset start [addr(a)]   (sequential latency)
// usage: node bench/peer.mjs [--connections 16] [--seconds 5] [--utxo-set 520000] [--out bench/out/peer.json]
// Needs a built workspace (pnpm build), PostgreSQL (BENCH_DATABASE_URL) and litecoind
// (scripts/install-litecoind.sh).
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createPgSql, openDatabase } from '../packages/db/dist/index.js';
import { createDefinitions, createIndexer, createNodeClient } from '../packages/indexer/dist/index.js';
import {
  BENCH_DATABASE_URL,
  createBenchDatabase,
  dbUrl,
  dropBenchDatabase,
  litecoindBin,
  startLitecoind,
  startScript,
} from './lib.mjs';
import { machineInfo } from './machine.mjs';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '5' },
    out: { type: 'string', default: 'bench/out/peer.json' },
    // Outputs added to the UTXO set beside the busy address (in transactions of 1,000 outputs each).
    'utxo-set': { type: 'string', default: '520000' },
  },
});
const connections = Number(values.connections);
const seconds = Number(values.seconds);

if (!litecoindBin()) {
  console.error('bench/peer: litecoind is not installed (scripts/install-litecoind.sh installs it)');
  process.exit(2);
}

// 1. A regtest node with a wallet, on loopback.
const node = await startLitecoind({ args: ['-rpcthreads=4', '-rpcworkqueue=1024'] });
const { auth, rpc } = node;
const rpcHttp = node.url;
/** Calls of the spending wallet (two wallets are loaded, so wallet calls name theirs). */
const wallet = (method, ...params) => node.wallet('bench', method, ...params);

// 2. A chain below MWEB activation (height 432): a busy bech32 address with 200 UTXOs, and a block of 150 txs.
console.error('bench/peer: building a regtest chain…');
await rpc('createwallet', 'bench');
// The busy address belongs to a second wallet, so the spending wallet never spends its coins.
await rpc('createwallet', 'sink');
const miner = await wallet('getnewaddress', '', 'bech32');
// 300 blocks: 200 mature coinbases to spend from. Mining every 25 sends keeps unconfirmed chains short.
await rpc('generatetoaddress', 300, miner);
const busy = await node.wallet('sink', 'getnewaddress', '', 'bech32');
for (let i = 0; i < 200; i++) {
  await wallet('sendtoaddress', busy, Number((0.01 + i / 1e6).toFixed(8)));
  if (i % 25 === 24) await rpc('generatetoaddress', 1, miner);
}
// scantxoutset reads the whole UTXO set, so give it one of some size: transactions of 1,000 outputs each
// (about 31 kB), 20 to a block, which keeps the chain below MWEB activation for up to ~2,400 of them.
const fillers = [];
for (let i = 0; i < 1000; i++) fillers.push(await node.wallet('sink', 'getnewaddress', '', 'bech32'));
const payouts = Object.fromEntries(fillers.map((a) => [a, 0.0001]));
const fillerTxs = Math.ceil(Number(values['utxo-set']) / 1000);
for (let i = 0; i < fillerTxs; i++) {
  await wallet('sendmany', '', payouts);
  if (i % 20 === 19) await rpc('generatetoaddress', 1, miner);
  if (i % 100 === 99) console.error(`bench/peer: ${i + 1} of ${fillerTxs} filler transactions`);
}
for (let i = 0; i < 150; i++)
  await wallet('sendtoaddress', await wallet('getnewaddress', '', 'bech32'), 0.02);
const [bigBlock] = await rpc('generatetoaddress', 1, miner);
await rpc('generatetoaddress', 10, miner);
const tip = await rpc('getblockcount');

// 3. Index it into a database of its own and serve it.
const dbName = `bench_peer_${process.pid}`;
const databaseUrl = dbUrl(dbName);
const admin = createPgSql({ connectionString: BENCH_DATABASE_URL, max: 1 });
await createBenchDatabase(admin, dbName);
const nodeUrl = node.urlWithCredentials;
const sql = await openDatabase({ url: databaseUrl, poolSize: 2 });
const indexer = createIndexer({
  sql,
  node: createNodeClient({ url: nodeUrl }),
  definitions: createDefinitions([], []),
});
await indexer.syncOnce();
await indexer.stop();
await sql.close();

const { proc: server, match } = await startScript(
  ['packages/server/dist/bin.js', 'start', '--no-index', '--port', '0'],
  {
    DATABASE_URL: databaseUrl,
    NODE_RPC_URL: nodeUrl,
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'silent',
  },
);
const api = match[1];
process.on('exit', () => server.kill('SIGKILL'));

// 4. Throughput at fixed concurrency: the API's block against the node's verbose block.
async function load(opts) {
  await autocannon({ ...opts, connections, duration: 2, timeout: 30 }); // warm-up
  const r = await autocannon({ ...opts, connections, duration: seconds, timeout: 30 });
  if (r.non2xx + r.errors + r.timeouts > 0) throw new Error(`${opts.url}: errors under load`);
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99 };
}
const ours = await load({ url: `${api}/v1/blocks/${bigBlock}` });
const theirs = await load({
  url: rpcHttp,
  method: 'POST',
  headers: { authorization: auth, 'content-type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'getblock', params: [bigBlock, 2] }),
});

// 5. UTXOs of the busy address, one request at a time (scantxoutset runs one scan at a time).
async function timeSequential(n, fn) {
  await fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - t) / n;
}
const scan = await rpc('scantxoutset', 'start', [`addr(${busy})`]);
if (scan.unspents.length !== 200) throw new Error(`scantxoutset found ${scan.unspents.length} of 200 UTXOs`);
// The API's side: every UTXO of the address, as scantxoutset answers it: two pages of 100, following the
// cursor, over one keep-alive connection (node:http: fetch's own per-request work would dominate a
// sub-millisecond answer).
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const getJson = (path) =>
  new Promise((resolve, reject) => {
    http
      .get(`${api}${path}`, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(JSON.parse(body))
            : reject(new Error(`${path}: ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });
const allUtxos = async () => {
  const first = await getJson(`/v1/addresses/${busy}/utxos?limit=100`);
  const cursor = first.pagination.nextCursor;
  const second = cursor
    ? await getJson(`/v1/addresses/${busy}/utxos?limit=100&cursor=${cursor}`)
    : { utxos: [] };
  return first.utxos.length + second.utxos.length;
};
if ((await allUtxos()) !== 200) throw new Error('the API did not return the 200 UTXOs');
const apiMs = await timeSequential(1000, allUtxos);
agent.destroy();
const scanMs = await timeSequential(20, () => rpc('scantxoutset', 'start', [`addr(${busy})`]));

const utxoSet = (await rpc('gettxoutsetinfo')).txouts;
const result = {
  date: new Date().toISOString(),
  machine: machineInfo(),
  command: `node bench/peer.mjs --connections ${connections} --seconds ${seconds}`,
  chain: { tip, blockTxs: (await rpc('getblock', bigBlock, 1)).tx.length, busyUtxos: 200, utxoSet },
  block: {
    connections,
    api: ours,
    nodeGetblock2: theirs,
    ratio: Math.round((ours.rps / theirs.rps) * 100) / 100,
  },
  utxos: {
    apiMs: Math.round(apiMs * 100) / 100,
    scantxoutsetMs: Math.round(scanMs * 100) / 100,
    speedup: Math.round(scanMs / apiMs),
  },
};
await dropBenchDatabase(admin, dbName);
await admin.close();
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
process.exit(0);
