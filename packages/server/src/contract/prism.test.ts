import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  type ChainFixture,
  createChainFixture,
  directChainNode,
  nodeBlockTxs,
} from '@explorer/chain-fixture';
import { createExplorerApi, UnauthorizedError, v1Routes } from '@explorer/core';
import { createSqlStore } from '@explorer/db';
import { createDemoProvider, createMarketRefresher } from '@explorer/indexer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerApp } from '../http/app.js';
import { createLogger } from '../logger.js';
import { createRateLimiter } from '../rate-limit/index.js';
import { serveApp } from '../test-support/serve-app.js';

// Prism (Stoplight's validating proxy) checks every request and answer against the document on its own:
// a third party's reading of our OpenAPI document, not ours.
function prismEntry(): string | null {
  try {
    const pkg = createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json');
    const entry = join(dirname(pkg), 'dist', 'index.js');
    return existsSync(entry) ? entry : null;
  } catch {
    return null;
  }
}
const PRISM = prismEntry();
if (!PRISM) console.log('prism.test: skipped, @stoplight/prism-cli is not installed (pnpm install)');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Starts `prism proxy --errors` in front of `upstream`; resolves once it listens. */
async function startPrism(doc: string, upstream: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [PRISM!, 'proxy', '--errors', '-h', '127.0.0.1', '-p', String(port), doc, upstream],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${output}`)), 60_000);
    const onData = (c: Buffer) => {
      output += c.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited (${code}):\n${output}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** A test network's extended public key (rust-miniscript's descriptor tests). */
const WALLET_TPUB =
  'tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz';

describe.skipIf(!PRISM)('every operation through a Prism validating proxy (pglite)', () => {
  let f: ChainFixture;
  let upstream: { url: string; close(): Promise<void> };
  let prism: { url: string; child: ChildProcess };
  let dir: string;

  beforeAll(async () => {
    f = await createChainFixture('pglite', { seed: 'prism', blocks: 40, txPerBlock: 4 });
    const market = createMarketRefresher({
      sql: f.db.sql,
      provider: createDemoProvider(),
      vsCurrencies: ['usd'],
      // Only the 7-day chart: the 365-day one stays unfetched, for a 503.
      chartDays: [7],
    });
    expect((await market.refreshOnce()).ok).toBe(true);
    const rateLimiter = createRateLimiter({
      policy: { windowSeconds: 60, anonymous: 10_000, key: 10_000, tiers: { tiny: 1 } },
      keyPrefix: `prism-${Date.now()}`,
    });
    const api = createExplorerApi({
      store: createSqlStore(f.db.sql),
      routes: v1Routes,
      node: directChainNode(f.node, () => f.devnet.height()),
      config: { tipCacheMs: 0, finalityDepth: 20 },
      rateLimiter,
      // One key, in a tier of one request a window: its second request is a 429.
      authenticate: async (key) => {
        if (key !== 'exk_tiny_key') throw new UnauthorizedError('API key is unknown or revoked');
        return { type: 'key', keyId: 'tiny', name: 'tiny', tier: 'tiny' };
      },
    });
    const log = createLogger({ level: 'silent' });
    const app = createServerApp({ api, log, rateLimiter });
    upstream = await serveApp((req, env) => app.fetch(req, env as never), { log });
    dir = mkdtempSync(join(tmpdir(), 'explorer-prism-'));
    const doc = join(dir, 'openapi.json');
    writeFileSync(doc, JSON.stringify(api.openapi()));
    prism = await startPrism(doc, upstream.url);
  });
  afterAll(async () => {
    prism?.child.kill();
    await upstream?.close();
    await f?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds no violation in a request set that covers every operation and every declared error', async () => {
    const tip = f.devnet.height();
    const height = tip - 25;
    const hash = await f.node.call<string>('getblockhash', [height]);
    const txs = await nodeBlockTxs(f.node, height);
    const txid = txs.find((t: any) => !t.vin[0].coinbase).txid as string;
    const truth = f.devnet.truth();
    const busy = truth.busyAddresses[0]!;
    const miner = Object.keys(truth.blocksByMiner)[0]!;
    const pool = Object.keys(truth.blocksByPool).find((p) => p !== 'unknown')!;
    const zero = '0'.repeat(64);
    const cursor = (await (await fetch(`${upstream.url}/v1/blocks?limit=2`)).json()).pagination.nextCursor;
    const key = { 'x-api-key': 'exk_tiny_key' };
    const requests: { op: string; path: string; status: number; headers?: Record<string, string> }[] = [
      { op: 'getOpenApiDocument', path: '/v1/openapi.json', status: 200 },
      { op: 'getDocs', path: '/v1/docs', status: 200 },
      { op: 'getMe', path: '/v1/api/me', status: 200 },
      { op: 'getMe', path: '/v1/api/me', status: 200, headers: key },
      { op: 'getMe', path: '/v1/api/me', status: 429, headers: key },
      { op: 'getMe', path: '/v1/api/me', status: 401, headers: { authorization: 'Bearer exk_unknown' } },
      { op: 'getStatus', path: '/v1/status', status: 200 },
      { op: 'listBlocks', path: '/v1/blocks?limit=2', status: 200 },
      { op: 'listBlocks', path: `/v1/blocks?limit=2&cursor=${cursor}`, status: 200 },
      { op: 'listBlocks', path: '/v1/blocks?limit=3&offset=2', status: 200 },
      { op: 'listBlocks', path: '/v1/blocks?cursor=garbage', status: 400 },
      { op: 'getBlock', path: `/v1/blocks/${height}`, status: 200 },
      { op: 'getBlock', path: `/v1/blocks/${hash}`, status: 200 },
      { op: 'getBlock', path: '/v1/blocks/99999999', status: 404 },
      { op: 'getBlockCertificate', path: `/v1/blocks/${height}/certificate?includeProof=true`, status: 200 },
      { op: 'getBlockCertificate', path: `/v1/blocks/${height}/certificate?includeProof=false`, status: 200 },
      { op: 'getBlockCertificate', path: `/v1/blocks/${zero}/certificate`, status: 404 },
      { op: 'getBlockCoinbaseOutputs', path: `/v1/blocks/${height}/coinbase-outputs`, status: 200 },
      { op: 'listBlockOutputs', path: `/v1/blocks/${height}/outputs?limit=5`, status: 200 },
      { op: 'getBlockRaw', path: `/v1/blocks/${height}/raw`, status: 200 },
      { op: 'listBlockTxs', path: `/v1/blocks/${height}/txs`, status: 200 },
      { op: 'listTxs', path: '/v1/txs?limit=5', status: 200 },
      { op: 'getTx', path: `/v1/txs/${txid}`, status: 200 },
      { op: 'getTx', path: `/v1/txs/${zero}`, status: 404 },
      { op: 'getTxFlow', path: `/v1/txs/${txid}/flow`, status: 200 },
      { op: 'listTxInputs', path: `/v1/txs/${txid}/inputs`, status: 200 },
      { op: 'listTxOutputs', path: `/v1/txs/${txid}/outputs`, status: 200 },
      { op: 'getTxRaw', path: `/v1/txs/${txid}/raw`, status: 200 },
      { op: 'getTxStatus', path: `/v1/txs/${txid}/status`, status: 200 },
      { op: 'getTxStatus', path: `/v1/txs/${zero}/status`, status: 404 },
      { op: 'listTxOutspends', path: `/v1/txs/${txid}/outspends?limit=3`, status: 200 },
      { op: 'getAddress', path: `/v1/addresses/${busy}`, status: 200 },
      { op: 'listAddressTxs', path: `/v1/addresses/${busy}/txs?limit=3`, status: 200 },
      { op: 'listAddressUtxos', path: `/v1/addresses/${busy}/utxos?limit=3`, status: 200 },
      { op: 'getAddressBalanceHistory', path: `/v1/addresses/${busy}/balance-history`, status: 200 },
      { op: 'getAddressFlowSummary', path: `/v1/addresses/${busy}/flow-summary`, status: 200 },
      { op: 'listAddressFlows', path: `/v1/addresses/${busy}/flows?limit=3`, status: 200 },
      { op: 'getAddresses', path: `/v1/addresses?addresses=${busy},${miner}`, status: 200 },
      {
        op: 'listMultiAddressTxs',
        path: `/v1/addresses/txs?addresses=${busy},${miner}&limit=3`,
        status: 200,
      },
      {
        op: 'listMultiAddressUtxos',
        path: `/v1/addresses/utxos?addresses=${busy},${miner}&limit=3`,
        status: 200,
      },
      { op: 'listAddressMempool', path: `/v1/addresses/${busy}/mempool?limit=3`, status: 200 },
      { op: 'getWallet', path: `/v1/wallet?key=${WALLET_TPUB}&gap=5`, status: 200 },
      { op: 'getWallet', path: '/v1/wallet?key=tpubnonsense', status: 400 },
      { op: 'listWalletTxs', path: `/v1/wallet/txs?key=${WALLET_TPUB}&limit=3`, status: 200 },
      { op: 'listWalletUtxos', path: `/v1/wallet/utxos?key=${WALLET_TPUB}&limit=3`, status: 200 },
      { op: 'listTopMiners', path: '/v1/miners/top?limit=3', status: 200 },
      { op: 'getMiner', path: `/v1/miners/${miner}?limit=3`, status: 200 },
      { op: 'getMinerBlocksOverTime', path: `/v1/miners/${miner}/blocks-over-time`, status: 200 },
      { op: 'listTopPools', path: '/v1/pools/top?window=all&limit=3', status: 200 },
      { op: 'getPool', path: `/v1/pools/${pool}`, status: 200 },
      { op: 'getPool', path: '/v1/pools/no-such-pool', status: 200 },
      { op: 'getPoolBlocksOverTime', path: `/v1/pools/${pool}/blocks-over-time`, status: 200 },
      { op: 'listPoolPayoutOutputs', path: `/v1/pools/${pool}/payout-outputs?limit=3`, status: 200 },
      { op: 'getNetworkAnalytics', path: '/v1/analytics/network', status: 200 },
      { op: 'getPouwAnalytics', path: '/v1/analytics/pouw', status: 200 },
      { op: 'getSupplyAnalytics', path: '/v1/analytics/supply', status: 200 },
      { op: 'getPoolAnalytics', path: '/v1/analytics/pools', status: 200 },
      { op: 'getMarketAnalytics', path: '/v1/analytics/market', status: 200 },
      { op: 'getMarket', path: '/v1/market', status: 200 },
      { op: 'getMarketChart', path: '/v1/market/chart?days=7&vsCurrency=usd', status: 200 },
      { op: 'getMarketChart', path: '/v1/market/chart?days=365', status: 503 },
      { op: 'getMarketChart', path: '/v1/market/chart?vsCurrency=eur', status: 400 },
      { op: 'search', path: `/v1/search?q=${height}`, status: 200 },
      { op: 'search', path: '/v1/search?q=a%01b', status: 400 },
      { op: 'suggest', path: `/v1/search/suggest?q=${String(height).slice(0, 1)}&limit=3`, status: 200 },
      { op: 'listKnownAddresses', path: '/v1/known-addresses', status: 200 },
      { op: 'getMempool', path: '/v1/mempool', status: 200 },
      // This app serves no event feed: the documented refusal (the stream itself is tested in src/events/).
      { op: 'getEvents', path: '/v1/events', status: 503 },
      { op: 'getFees', path: '/v1/fees', status: 200 },
      { op: 'getBlockbookEstimateFee', path: '/api/v1/estimatefee/2', status: 200 },
      { op: 'getBlockbookEstimateFee', path: '/api/v1/estimatefee/0', status: 400 },
      { op: 'getBlockbookV2EstimateFee', path: '/api/v2/estimatefee/6?conservative=true', status: 200 },
    ];
    const doc = (await (await fetch(`${upstream.url}/v1/openapi.json`)).json()) as any;
    const operationIds = Object.values<any>(doc.paths).map((item) => item.get.operationId as string);
    expect(new Set(requests.map((r) => r.op))).toEqual(new Set(operationIds));
    const problems: unknown[] = [];
    for (const r of requests) {
      const res = await fetch(`${prism.url}${r.path}`, { headers: r.headers });
      const body = await res.text();
      const violations = res.headers.get('sl-violations');
      if (
        res.status !== r.status ||
        violations !== null ||
        /problem\+json/.test(res.headers.get('content-type') ?? '')
      )
        problems.push({ ...r, got: res.status, violations, body: body.slice(0, 600) });
    }
    expect(problems).toEqual([]);
    expect(new Set(requests.map((r) => r.status))).toEqual(new Set([200, 400, 401, 404, 429, 503]));
  });
});
