#!/usr/bin/env node
// Latency of the analytics, mining and suggest endpoints on two chains, the second ten times longer.
// The claim under test: their cost does not grow with the chain (ratio ≤ 1.5).
// usage: node bench/growth.mjs [--blocks 2000] [--factor 10] [--tx-per-block 6] [--out bench/out/growth.json]
// Needs a built workspace (pnpm build) and PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { createExplorerApi, v1Routes } from '../packages/core/dist/index.js';
import { createPgSql, createSqlStore, openDatabase } from '../packages/db/dist/index.js';
import { createDevnet } from '../packages/devnet/dist/index.js';
import {
  createDefinitions,
  createIndexer,
  createNodeClient,
  parseLabels,
  parsePools,
} from '../packages/indexer/dist/index.js';
import { BENCH_DATABASE_URL } from './lib.mjs';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '2000' },
    factor: { type: 'string', default: '10' },
    'tx-per-block': { type: 'string', default: '6' },
    requests: { type: 'string', default: '300' },
    out: { type: 'string', default: 'bench/out/growth.json' },
  },
});
const url = BENCH_DATABASE_URL;
const requests = Number(values.requests);

async function chain(blocks) {
  const devnet = createDevnet({
    seed: 'growth',
    blocks,
    txPerBlock: Number(values['tx-per-block']),
    proofSize: [200, 2000],
  });
  const server = await devnet.listen({ port: 0 });
  const schema = `growth_${blocks}_${process.pid}`;
  const admin = createPgSql({ connectionString: url, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const sql = await openDatabase({ url, schema, poolSize: 4 });
  const d = devnet.definitions();
  const indexer = createIndexer({
    sql,
    node: createNodeClient({ url: server.url }),
    definitions: createDefinitions(parsePools(d.pools), parseLabels(d.labels)),
  });
  const t = performance.now();
  await indexer.syncOnce();
  await indexer.stop();
  await sql.query('ANALYZE');
  console.error(`bench/growth: ${blocks} blocks indexed in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const api = createExplorerApi({
    store: createSqlStore(sql),
    routes: v1Routes,
    config: { cacheEntries: 0 },
  });
  const tx = (await devnet.rpc('getblock', [await devnet.rpc('getblockhash', [blocks - 5]), 1])).tx[1];
  const pool = Object.entries(devnet.truth().blocksByPool).sort((a, b) => b[1] - a[1])[0][0];
  return {
    api,
    paths: {
      'analytics/network': '/v1/analytics/network',
      'analytics/pouw': '/v1/analytics/pouw',
      'analytics/supply': '/v1/analytics/supply',
      'analytics/pools': '/v1/analytics/pools',
      'pools/top 7d': '/v1/pools/top',
      'miners/top': '/v1/miners/top',
      'pools/{id}': `/v1/pools/${pool}`,
      'search/suggest txid': `/v1/search/suggest?q=${tx.slice(0, 6)}`,
      'search/suggest pool': '/v1/search/suggest?q=via',
      status: '/v1/status',
    },
    async close() {
      await sql.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
      await server.close();
    },
  };
}

/** Median latencies of one endpoint on both chains, alternating requests so background load hits both alike. */
async function medians(apiA, pathA, apiB, pathB) {
  const once = async (api, path) => {
    const t = performance.now();
    const res = await api.handle(new Request(`http://bench${path}`));
    await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 20; i++) {
    await once(apiA, pathA);
    await once(apiB, pathB);
  }
  const a = [];
  const b = [];
  for (let i = 0; i < requests; i++) {
    a.push(await once(apiA, pathA));
    b.push(await once(apiB, pathB));
  }
  const mid = (xs) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return [mid(a), mid(b)];
}

const small = Number(values.blocks);
const large = small * Number(values.factor);
const a = await chain(small);
const b = await chain(large);
const rows = [];
for (const name of Object.keys(a.paths)) {
  const ms = await medians(a.api, a.paths[name], b.api, b.paths[name]);
  rows.push({
    endpoint: name,
    smallMs: +ms[0].toFixed(3),
    largeMs: +ms[1].toFixed(3),
    ratio: +(ms[1] / ms[0]).toFixed(2),
  });
}
await a.close();
await b.close();
const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version },
  command: `node bench/growth.mjs --blocks ${small} --factor ${values.factor}`,
  chains: { smallBlocks: small, largeBlocks: large },
  medians: rows,
  worstRatio: Math.max(...rows.map((r) => r.ratio)),
};
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
console.table(rows);
console.log(`worst ratio ${result.worstRatio} (target ≤ 1.5)`);
process.exit(0);
