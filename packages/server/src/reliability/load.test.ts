import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgSql } from '@explorer/db';
import {
  type FakeMarketProvider,
  pgSkipReason,
  scratchDatabase,
  startFakeMarketProvider,
  TEST_SERVER_SETTINGS,
  waitFor,
} from '@explorer/testing';
import autocannon from 'autocannon';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess } from '../test-support/processes.js';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 64);
const serverBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
// The devnet's own program, found as the package this one declares.
const devnetBin = join(
  dirname(createRequire(import.meta.url).resolve('@explorer/devnet/package.json')),
  'dist/bin.js',
);
const reason =
  pgSkipReason() ??
  (existsSync(serverBin) && existsSync(devnetBin)
    ? null
    : 'the server or devnet is not built (run pnpm build)');
if (reason) console.log(`[load] ${reason}: load test skipped`);

type Mix = 'hot' | 'long-tail';
const MIXES = (process.env.LOAD_MIX ?? 'hot,long-tail').split(',') as Mix[];

interface MixReport {
  requests: number;
  requestsPerSecond: number;
  /** Answers whose meta says they came from a cache. */
  cachedShare: number;
  /** Different paths asked, and their share of the requests sent (1: no path was asked twice). */
  distinctPaths: number;
  distinctShare: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Per endpoint class, slowest p99 first (client-side, from building a request to its response). */
  classes: { name: string; requests: number; p50: number; p99: number }[];
}

function mixReport(
  result: autocannon.Result,
  byClass: Map<string, number[]>,
  cached: number,
  asked: { paths: Set<string>; sent: number },
): MixReport {
  const quantile = (xs: number[], f: number) =>
    Math.round(xs[Math.min(xs.length - 1, Math.floor(f * xs.length))]! * 10) / 10;
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    cachedShare: Math.round((cached / Math.max(1, result.requests.total)) * 100) / 100,
    distinctPaths: asked.paths.size,
    distinctShare: Math.round((asked.paths.size / Math.max(1, asked.sent)) * 100) / 100,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, Number(v.count)]),
    ),
    errors: result.errors,
    timeouts: result.timeouts,
    classes: [...byClass]
      .map(([name, xs]) => {
        xs.sort((x, y) => x - y);
        return { name, requests: xs.length, p50: quantile(xs, 0.5), p99: quantile(xs, 0.99) };
      })
      .sort((x, y) => y.p99 - x.p99),
  };
}

/** Server memory over one mix: the peak of its first and of its last third, after the first 3 s. */
function memoryOf(samples: number[]) {
  const settled = samples.slice(3);
  const third = Math.max(1, Math.floor(settled.length / 3));
  const peak = (xs: number[]) => Math.round(Math.max(0, ...xs));
  return {
    samples: settled.length,
    early: peak(settled.slice(0, third)),
    late: peak(settled.slice(-third)),
    max: peak(samples),
  };
}

const rssMiB = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, { method: 'POST', body: JSON.stringify({ id: 1, method, params }) });
  const body = (await res.json()) as { result: unknown; error?: { message?: string } | null };
  if (body.error) throw new Error(`${method}: ${body.error.message ?? JSON.stringify(body.error)}`);
  return body.result;
}

describe.skipIf(reason !== null)(`sustained load while the indexer follows a live, reorging devnet`, () => {
  const procs: ChildProcess[] = [];
  const dirs: string[] = [];
  let dropDatabase: (() => Promise<void>) | null = null;
  let market: FakeMarketProvider | null = null;
  afterAll(async () => {
    for (const p of procs) p.kill('SIGKILL');
    await market?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await dropDatabase?.();
  });

  it(`${CONNECTIONS} connections for ${SECONDS} s over every endpoint class: no 5xx, bounded memory`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'explorer-load-'));
    dirs.push(dir);
    const devnet = await startProcess(
      [
        devnetBin,
        '--seed',
        'load',
        // Enough blocks, transactions and addresses that the long tail names a new one in nearly every request.
        '--blocks',
        '2000',
        '--tx-per-block',
        '6',
        '--proof-min',
        '200',
        '--proof-max',
        '400',
        '--interval-ms',
        '1000',
        '--coinbase-maturity',
        '5',
        '--port',
        '0',
        '--definitions-dir',
        dir,
      ],
      {},
      /^(\{.*\})$/m,
    );
    procs.push(devnet.proc);
    const node = JSON.parse(devnet.match[1]!) as { url: string; poolsFile: string; labelsFile: string };

    // Beside a node, market data comes from a configured provider (a local stand-in here).
    market = await startFakeMarketProvider('loadcoin');

    // A database of its own, so the server runs exactly as deployed.
    const database = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'load');
    dropDatabase = database.drop;

    const server = await startProcess(
      [serverBin, 'start', '--port', '0'],
      {
        DATABASE_URL: database.url,
        NODE_RPC_URL: node.url,
        POOLS_FILE: node.poolsFile,
        LABELS_FILE: node.labelsFile,
        MARKET_PROVIDER_URL: market.url,
        MARKET_COIN_ID: 'loadcoin',
        ...TEST_SERVER_SETTINGS,
        LOG_LEVEL: 'silent',
        INDEXER_POLL_MS: '200',
        EXPLORER_DATA_DIR: dir,
        // A loaded CI machine may stall PostgreSQL for seconds: a timeout there is not a server bug.
        DB_STATEMENT_TIMEOUT_MS: '30000',
        DB_CONNECT_TIMEOUT_MS: '30000',
      },
      /listening on (http:\/\/\S+)/,
    );
    procs.push(server.proc);
    const url = server.match[1]!;
    const get = async (path: string) => (await fetch(`${url}${path}`)).json() as Promise<any>;
    await waitFor(
      'the initial sync',
      async () => (await get('/v1/status')).status?.indexer?.state === 'synced',
      600_000,
      200,
    );
    // The market cache answers once the refresher's first fetch is in (before it, /v1/market is a 503).
    await waitFor('the first market data', async () => (await get('/v1/market')).ok === true);

    // Samples from the chain itself. The hot mix asks for the same page of each class every time (a front page
    // and its links: nearly every request is answered from the response cache). The long tail walks lists of
    // every block, transaction and address of the chain in a shuffled order, so that nearly every request
    // names what no request asked before (a crawler, wallets scanning, links followed): the caches cannot
    // answer it and the database must. Some vanish in reorgs, which answer 404, never 5xx.
    const sample = createPgSql({ connectionString: database.url, max: 1 });
    const column = async (text: string) =>
      (await sample.query<{ x: string }>(text, [], 'test.sample')).map((r) => r.x);
    const txids = await column(`SELECT encode(txid, 'hex') AS x FROM txs ORDER BY random()`);
    const blocks = await sample.query<{ height: number; hash: string }>(
      'SELECT height, hash FROM blocks ORDER BY random()',
      [],
      'test.sample',
    );
    const addresses = await column('SELECT address AS x FROM addresses ORDER BY random() LIMIT 50000');
    const miners = await column('SELECT address AS x FROM miner_stats ORDER BY random()');
    const pools = await column('SELECT pool_id AS x FROM pool_stats ORDER BY random()');
    const certified = (
      await sample.query<{ height: number }>(
        'SELECT height FROM block_certificates ORDER BY random()',
        [],
        'test.sample',
      )
    ).map((c) => c.height);
    await sample.close();
    if (!txids.length || !miners.length || !pools.length || !certified.length)
      throw new Error('the devnet chain lacks transactions, miners, pools or certificates to sample');
    let mix: Mix = 'hot';
    /** The next of `xs` for the long tail (walked in order, again from the start once all were asked). */
    const walker = <T>(xs: readonly T[]) => {
      let i = 0;
      return (): T => (mix === 'hot' ? xs[Math.floor(xs.length / 3)]! : xs[i++ % xs.length]!);
    };
    const height = walker(blocks.map((b) => b.height));
    const hash = walker(blocks.map((b) => b.hash));
    const tx = walker(txids);
    const address = walker(addresses);
    const miner = walker(miners);
    const pool = walker(pools);
    const cert = walker(certified);
    const term = walker(['height', 'tx', 'address'] as const);
    const prefix = walker(txids.map((t, i) => t.slice(0, 4 + (i % 8))));
    // [endpoint class, a request of it, whether it names a resource (else: a list or figure of the tip)]
    const templates: [string, () => string, boolean][] = [
      ['/v1/blocks', () => '/v1/blocks', false],
      ['/v1/blocks/{height}', () => `/v1/blocks/${height()}`, true],
      ['/v1/blocks/{hash}', () => `/v1/blocks/${hash()}`, true],
      ['/v1/blocks/{height}/txs', () => `/v1/blocks/${height()}/txs`, true],
      ['/v1/blocks/{height}/outputs', () => `/v1/blocks/${height()}/outputs`, true],
      ['/v1/blocks/{height}/coinbase-outputs', () => `/v1/blocks/${height()}/coinbase-outputs`, true],
      ['/v1/blocks/{height}/raw', () => `/v1/blocks/${height()}/raw`, true],
      ['/v1/blocks/{height}/certificate', () => `/v1/blocks/${cert()}/certificate`, true],
      ['/v1/txs', () => '/v1/txs', false],
      ['/v1/txs/{txid}', () => `/v1/txs/${tx()}`, true],
      ['/v1/txs/{txid}/flow', () => `/v1/txs/${tx()}/flow`, true],
      ['/v1/txs/{txid}/inputs', () => `/v1/txs/${tx()}/inputs`, true],
      ['/v1/txs/{txid}/outputs', () => `/v1/txs/${tx()}/outputs`, true],
      ['/v1/txs/{txid}/raw', () => `/v1/txs/${tx()}/raw`, true],
      ['/v1/txs/{txid}/status', () => `/v1/txs/${tx()}/status`, true],
      ['/v1/txs/{txid}/outspends', () => `/v1/txs/${tx()}/outspends`, true],
      ['/v1/addresses/{address}', () => `/v1/addresses/${address()}`, true],
      ['/v1/addresses/{address}/txs', () => `/v1/addresses/${address()}/txs`, true],
      ['/v1/addresses/{address}/utxos', () => `/v1/addresses/${address()}/utxos`, true],
      ['/v1/addresses/{address}/flows', () => `/v1/addresses/${address()}/flows`, true],
      ['/v1/addresses/{address}/flow-summary', () => `/v1/addresses/${address()}/flow-summary`, true],
      ['/v1/addresses/{address}/balance-history', () => `/v1/addresses/${address()}/balance-history`, true],
      [
        '/v1/addresses?addresses={20}',
        () => `/v1/addresses?addresses=${Array.from({ length: 20 }, address).join(',')}`,
        true,
      ],
      ['/v1/miners/top', () => '/v1/miners/top', false],
      ['/v1/miners/{address}', () => `/v1/miners/${miner()}`, true],
      ['/v1/pools/top', () => '/v1/pools/top', false],
      ['/v1/pools/{poolId}', () => `/v1/pools/${pool()}`, true],
      ['/v1/pools/{poolId}/payout-outputs', () => `/v1/pools/${pool()}/payout-outputs`, true],
      ['/v1/analytics/network', () => '/v1/analytics/network', false],
      ['/v1/analytics/pouw', () => '/v1/analytics/pouw', false],
      ['/v1/analytics/supply', () => '/v1/analytics/supply', false],
      ['/v1/analytics/pools', () => '/v1/analytics/pools', false],
      ['/v1/analytics/market', () => '/v1/analytics/market', false],
      ['/v1/market', () => '/v1/market', false],
      [
        '/v1/search?q={q}',
        () => {
          const kind = term();
          return `/v1/search?q=${kind === 'height' ? height() : kind === 'tx' ? tx() : address()}`;
        },
        true,
      ],
      [
        '/v1/search/suggest?q={prefix}',
        () => `/v1/search/suggest?q=${mix === 'hot' ? tx().slice(0, 6) : prefix()}`,
        true,
      ],
      ['/v1/known-addresses', () => '/v1/known-addresses', false],
      ['/v1/mempool', () => '/v1/mempool', false],
      ['/v1/status', () => '/v1/status', false],
      ['/v1/api/me', () => '/v1/api/me', false],
      ['/v1/blocks?limit=100', () => '/v1/blocks?limit=100', false],
    ];

    let rss: number[] = [];
    const sampler = setInterval(() => rss.push(rssMiB(server.proc.pid!)), 1_000);
    let reorgs = 0;
    const reorger = setInterval(() => {
      reorgs++;
      rpc(node.url, 'devnet_reorg', [1 + (reorgs % 3)]).catch(() => {});
    }, 4_000);
    const reports: Record<string, MixReport & { serverRssMiB: ReturnType<typeof memoryOf> }> = {};
    // The worker's process runs other files after this one: the timers end with the load, however it ends.
    try {
      for (const name of MIXES) {
        mix = name;
        rss = [];
        const byClass = new Map<string, number[]>();
        const cachedCount = { n: 0 };
        const asked = { paths: new Set<string>(), sent: 0 };
        // The long tail asks what names a resource; the tip's lists and figures are the hot mix's.
        const classes = templates.filter(([, , named]) => mix === 'hot' || named);
        const result = await autocannon({
          url,
          connections: CONNECTIONS,
          duration: SECONDS,
          // Seconds a request may take before autocannon counts it as an error (the default 10 is tight
          // for 64 connections on a loaded 2-core machine).
          timeout: 30,
          requests: classes.map(([className, make]) => ({
            method: 'GET' as const,
            // One request at a time per connection: from building a request to its response is its latency.
            setupRequest: (req: any, context: any) => {
              context.sentAt = performance.now();
              const path = make();
              asked.paths.add(path);
              asked.sent++;
              return { ...req, path };
            },
            onResponse: (_status: number, body: string, context: any) => {
              const xs = byClass.get(className) ?? [];
              if (xs.length === 0) byClass.set(className, xs);
              xs.push(performance.now() - context.sentAt);
              if (body.includes('"cached":true')) cachedCount.n++;
            },
          })),
        });
        reports[name] = {
          ...mixReport(result, byClass, cachedCount.n, asked),
          serverRssMiB: memoryOf(rss),
        };
      }
    } finally {
      clearInterval(sampler);
      clearInterval(reorger);
    }

    const report = {
      seconds: SECONDS,
      connections: CONNECTIONS,
      reorgs,
      mixes: reports,
    };
    for (const [name, r] of Object.entries(reports))
      console.log(`[load] ${name}: ${JSON.stringify({ ...r, classes: r.classes.slice(0, 5) })}`);
    console.log(`[load] ${JSON.stringify({ ...report, mixes: undefined })}`);
    if (process.env.LOAD_REPORT)
      writeFileSync(process.env.LOAD_REPORT, `${JSON.stringify(report, null, 2)}\n`);
    for (const r of Object.values(reports)) {
      expect(Object.keys(r.statuses).filter((code) => Number(code) >= 500)).toEqual([]);
      expect(r.errors).toBe(0);
      expect(r.requests).toBeGreaterThan(1000);
    }
    expect(reorgs).toBeGreaterThan(1);
    // Memory settles within each mix: the last third stays within half again of the first third's peak (only
    // judged when there are enough samples, after the first seconds of caches filling, to tell a trend).
    for (const r of Object.values(reports))
      if (r.serverRssMiB.samples >= 6) expect(r.serverRssMiB.late).toBeLessThan(r.serverRssMiB.early * 1.5);
    // The devnet keeps mining; give the indexer a moment to catch up with the block it just found.
    let status = await waitFor(
      'the indexer to be synced after the load',
      async () => {
        const s = await get('/v1/status');
        return s.status?.indexer?.state === 'synced' ? s : null;
      },
      180_000,
      200,
    );
    expect(status.status.indexer.state).toBe('synced');
    // The reorgs fired during the load may all have landed while the indexer lagged behind them; one
    // more on a synced indexer must be seen and counted.
    await rpc(node.url, 'devnet_reorg', [2]);
    const deadline = Date.now() + 180_000;
    while (!(status.status?.indexer?.reorgs > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      status = await get('/v1/status');
    }
    expect(status.status.indexer.reorgs).toBeGreaterThan(0);
  });
});
