#!/usr/bin/env node
// Wallet requests, in process (no HTTP): what naming many addresses in one request saves over one request per
// address, and what the wallet of an extended public key costs with many used addresses.
//
//   node bench/wallet.mjs [--used 1000] [--rounds 5] [--max-seconds 300]
//
// Builds a devnet whose HD wallet (a tpub, taproot) gets `--used` addresses paid (80% receive, 20% change, one
// per block), indexes it into an in-memory PGlite (`pnpm build` first), then times, over `--rounds` rounds:
// - one `/v1/addresses?addresses=` request naming 100 used addresses against 100 `/v1/addresses/{a}` requests,
//   and the same for UTXOs (`/v1/addresses/utxos?addresses=…&limit=100` against 100 `…/{a}/utxos?limit=100`);
// - `/v1/wallet?key=` cold (discovery each time: the in-process cache off) and warm (the discovery kept at the
//   tip), and the first page of `/v1/wallet/utxos`.
// Prints one JSON line with the medians in milliseconds and the ratios. The whole run is bounded by
// --max-seconds (it exits with code 2 past it). Setting up a 1,000-address wallet indexes about 1,030 blocks.
import { parseArgs } from 'node:util';
import { machineInfo } from './machine.mjs';

const { values } = parseArgs({
  options: {
    used: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
    'max-seconds': { type: 'string', default: '300' },
  },
});
const used = Number(values.used);
const rounds = Number(values.rounds);
const maxSeconds = Number(values['max-seconds']);
setTimeout(() => {
  process.stderr.write(`wallet bench: stopped after ${maxSeconds} s (--max-seconds)\n`);
  process.exit(2);
}, maxSeconds * 1000).unref();

const dist = (p) => new URL(`../packages/${p}/dist/index.js`, import.meta.url).href;
const { createDevnet } = await import(dist('devnet'));
const { openDatabase, createSqlStore } = await import(dist('db'));
const { createIndexer, createNodeClient, createDefinitions } = await import(dist('indexer'));
const { createExplorerApi, v1Routes } = await import(dist('core'));

// A test network's account key (rust-miniscript's descriptor tests).
const TPUB =
  'tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz';
const receive = Math.ceil(used * 0.8);
const change = used - receive;

const t0 = performance.now();
const devnet = createDevnet({
  seed: 'bench-wallet',
  blocks: Math.ceil(used * 1.1) + 50,
  txPerBlock: 2,
  coinbaseMaturity: 10,
  proofSize: [200, 2000],
  hdWallet: TPUB,
  hdWalletAddresses: [receive, change],
});
const node = await devnet.listen({ port: 0 });
const sql = await openDatabase({ dataDir: 'memory://' });
const indexer = createIndexer({
  sql,
  node: createNodeClient({ url: node.url }),
  definitions: createDefinitions([], []),
});
await indexer.syncOnce();
await indexer.stop();
const setupMs = performance.now() - t0;

const key = { type: 'key', keyId: 'bench', name: 'bench', tier: 'bench' };
const apiWith = (config) =>
  createExplorerApi({
    store: createSqlStore(sql),
    routes: v1Routes,
    // A key lifts the many-address bound to 200 and the wallet's to 4,000 addresses per branch.
    authenticate: async () => key,
    config: { tipCacheMs: 0, responseCacheMs: 0, ...config },
  });
const cold = apiWith({ cacheEntries: 0 });
const warm = apiWith({});

async function get(api, path) {
  const res = await api.handle(
    new Request(`http://127.0.0.1${path}`, { headers: { 'x-api-key': 'exk_bench' } }),
  );
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${path.slice(0, 80)}: ${res.status} ${body.error}`);
  return body;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn) {
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return Math.round(median(samples) * 100) / 100;
}

const enc = encodeURIComponent(TPUB);
const { wallet } = await get(warm, `/v1/wallet?key=${enc}`);
const hundred = wallet.used.slice(0, 100).map((a) => a.address);
if (hundred.length < 100)
  throw new Error(`only ${hundred.length} used addresses: ask for --used 100 or more`);

const manySummaries = await time(() => get(cold, `/v1/addresses?addresses=${hundred.join(',')}`));
const singleSummaries = await time(async () => {
  for (const a of hundred) await get(cold, `/v1/addresses/${a}`);
});
const manyUtxos = await time(() => get(cold, `/v1/addresses/utxos?addresses=${hundred.join(',')}&limit=100`));
const singleUtxos = await time(async () => {
  for (const a of hundred) await get(cold, `/v1/addresses/${a}/utxos?limit=100`);
});
const walletCold = await time(() => get(cold, `/v1/wallet?key=${enc}`));
const walletWarm = await time(() => get(warm, `/v1/wallet?key=${enc}`));
const utxosCold = await time(() => get(cold, `/v1/wallet/utxos?key=${enc}&limit=100`));
const utxosWarm = await time(() => get(warm, `/v1/wallet/utxos?key=${enc}&limit=100`));

const ratio = (a, b) => Math.round((a / b) * 10) / 10;
process.stdout.write(
  `${JSON.stringify({
    bench: 'wallet',
    machine: machineInfo(),
    rounds,
    setupMs: Math.round(setupMs),
    hundredAddresses: {
      summaries: { oneRequestMs: manySummaries, hundredRequestsMs: singleSummaries },
      utxos: { oneRequestMs: manyUtxos, hundredRequestsMs: singleUtxos },
      ratio: { summaries: ratio(singleSummaries, manySummaries), utxos: ratio(singleUtxos, manyUtxos) },
    },
    wallet: {
      used: wallet.used.length,
      derived: wallet.derived,
      txCount: wallet.txCount,
      summaryColdMs: walletCold,
      summaryWarmMs: walletWarm,
      utxosPageColdMs: utxosCold,
      utxosPageWarmMs: utxosWarm,
      coldPerDerivedAddressMs: Math.round((walletCold / wallet.derived) * 1000) / 1000,
      ratio: { coldOverWarm: ratio(walletCold, walletWarm) },
    },
  })}\n`,
);
await node.close();
await sql.close?.();
process.exit(0);
