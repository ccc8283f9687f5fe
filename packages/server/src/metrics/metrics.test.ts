import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Identity } from '@explorer/core';
import { getJson, seedDataDir, waitFor } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createRateLimiter } from '../rate-limit/index.js';
import { createRuntime, type Runtime } from '../runtime/index.js';
import { captureLog } from '../test-support/log-capture.js';
import {
  type Exposition,
  metricNames,
  parseExposition,
  queryableNames,
  sampleValue,
} from '../test-support/metrics-text.js';
import { createMetrics } from './metrics.js';

const BLOCKS = 20;
const REQUESTS = 2_000;
const standalone = fileURLToPath(new URL('../../../../examples/standalone/', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'explorer-metrics-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function scrape(url: string): Promise<Exposition> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return parseExposition(await res.text());
}

/** A small seeded generator, so a failing run can be repeated request for request. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const word = () => Math.floor(next() * 2 ** 40).toString(36);
  const hex64 = () =>
    Array.from({ length: 8 }, () =>
      Math.floor(next() * 2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
  return { next, word, hex64 };
}

/** Requests no route answers with a body of its own: unknown paths, unknown ids in known routes, bad queries. */
const SHAPES: ((r: ReturnType<typeof random>) => string)[] = [
  (r) => `/${r.word()}/${r.word()}`,
  (r) => `/v1/${r.word()}?${r.word()}=${r.word()}`,
  (r) => `/v1/blocks/${r.word()}/${r.word()}`,
  (r) => `/v1/blocks/${r.hex64()}`,
  (r) => `/v1/txs/${r.hex64()}?${r.word()}=${r.word()}`,
  (r) => `/v1/addresses/${r.word()}`,
  (r) => `/v1/blocks?cursor=${r.word()}`,
];

/**
 * The explorer's series that requests could add to: every one but the database statements', which are one per
 * statement name the code has (a background statement first run meanwhile, such as the event hub catching up
 * on its log, adds its own whatever the requests were).
 */
const explorerSeries = (e: Exposition) =>
  e.samples.filter((s) => s.name.startsWith('explorer_') && !s.name.startsWith('explorer_db_query_')).length;

describe('metrics of a running explorer (PGlite, devnet)', () => {
  const cap = captureLog();
  let runtime: Runtime;
  let url: string;
  let metricsUrl: string;

  beforeAll(async () => {
    runtime = await createRuntime(
      loadConfig({
        EXPLORER_DATA_DIR: await seedDataDir(join(root, 'main')),
        PORT: '0',
        METRICS_PORT: '0',
        DEVNET_BLOCKS: String(BLOCKS),
        DEVNET_INTERVAL_MS: '0',
        INDEXER_POLL_MS: '50',
        MEMPOOL_POLL_MS: '100',
        RATE_LIMIT_ANON: '1000000',
      }),
      { log: cap.log },
    );
    url = runtime.url!;
    metricsUrl = runtime.metricsUrl!;
    await waitFor('the index to reach the devnet tip', async () => {
      const { body } = await getJson(`${url}/v1/status`);
      return body.status?.indexer?.state === 'synced' && body.status.indexer.tipHeight === BLOCKS;
    });
  });
  afterAll(() => runtime?.close());

  it('serves /metrics on a listener of its own, which the log names, and not on the API port', async () => {
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(metricsUrl).port).not.toBe(new URL(url).port);
    expect(cap.messages(`metrics listening on ${metricsUrl}`)).toHaveLength(1);
    const res = await fetch(metricsUrl);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toContain('# TYPE explorer_http_requests_total counter');
    expect((await fetch(new URL('/', metricsUrl))).status).toBe(404);
    const onApi = await getJson(`${url}/metrics`);
    expect(onApi.status).toBe(404);
    expect(onApi.body.ok).toBe(false);
  });

  it('reports what /v1/status reports, and counts requests, cache hits and queries', async () => {
    const { body } = await getJson(`${url}/v1/status`);
    const m = await scrape(metricsUrl);
    expect(sampleValue(m, 'explorer_indexer_height')).toBe(body.status.indexer.tipHeight);
    expect(sampleValue(m, 'explorer_node_height')).toBe(body.status.indexer.nodeHeight);
    expect(sampleValue(m, 'explorer_indexer_lag_blocks')).toBe(0);
    expect(sampleValue(m, 'explorer_indexer_state', { state: 'synced' })).toBe(1);
    expect(sampleValue(m, 'explorer_indexer_state', { state: 'syncing' })).toBe(0);
    // Genesis and the devnet's blocks, each written once by this process's indexer.
    expect(sampleValue(m, 'explorer_indexer_blocks_total')).toBe(BLOCKS + 1);
    expect(sampleValue(m, 'explorer_indexer_transactions_total')).toBeGreaterThan(BLOCKS);
    expect(m.samples.find((s) => s.name === 'explorer_build_info')?.value).toBe(1);

    const route = { route: '/v1/blocks/{heightOrHash}', status_class: '2xx' };
    const count = (e: Exposition, cache: string) =>
      sampleValue(e, 'explorer_http_requests_total', { ...route, cache }) ?? 0;
    const hits = (e: Exposition) => sampleValue(e, 'explorer_response_cache_hits_total')!;
    const misses = (e: Exposition) => sampleValue(e, 'explorer_response_cache_misses_total')!;
    // The same URL at the same tip is served from the response cache for a second after it was rendered: asked
    // twice in a row until the second answer came from it (a busy machine may take longer than that).
    const told = { hit: 0, miss: 0 };
    // Heights cycle below the tip, so a slow machine never walks past it into 404s (which are never cached).
    for (let n = 0; told.hit === 0; n++) {
      const height = 1 + (n % (BLOCKS - 1));
      for (let i = 0; i < 2; i++) {
        const { body: block } = await getJson(`${url}/v1/blocks/${height}`);
        told[block.meta.cached ? 'hit' : 'miss']++;
      }
    }
    const after = await scrape(metricsUrl);
    expect(count(after, 'miss') - count(m, 'miss')).toBe(told.miss);
    expect(count(after, 'hit') - count(m, 'hit')).toBe(told.hit);
    expect(misses(after) - misses(m) + (hits(after) - hits(m))).toBe(told.hit + told.miss);
    expect(hits(after) - hits(m)).toBeGreaterThan(0);
    expect(sampleValue(after, 'explorer_response_cache_entries')).toBeGreaterThan(0);
    expect(sampleValue(after, 'explorer_response_cache_bytes')).toBeGreaterThan(0);
    // Every statement is timed under its query name.
    expect(
      sampleValue(after, 'explorer_db_query_duration_seconds_count', { query: 'blocks.one' }),
    ).toBeGreaterThan(0);
    // The embedded database has no pool to report.
    expect(after.samples.some((s) => s.name === 'explorer_db_pool_connections')).toBe(false);
    expect(sampleValue(after, 'explorer_event_subscribers')).toBe(0);
    expect(sampleValue(after, 'explorer_webhook_outbox_depth')).toBe(0);
    expect(sampleValue(after, 'explorer_mempool_transactions')).toBeGreaterThanOrEqual(0);
  });

  it('counts the server’s own pages by their routes, and what middleware refused as unmatched', async () => {
    const counted = (m: Exposition, route: string, status_class: string) =>
      sampleValue(m, 'explorer_http_requests_total', { route, status_class }) ?? 0;
    const cases = [
      ['/', '/', '2xx'],
      ['/favicon.ico', '/favicon.ico', '2xx'],
      ['/docs/assets/swagger-ui.css', '/docs/assets/{name}', '2xx'],
      // 414 for a URL too long: the API's refusal names the route; the server's own, outside /v1, none.
      [`/v1/blocks?x=${'y'.repeat(3000)}`, '/v1/blocks', '4xx'],
      [`/${'y'.repeat(3000)}`, 'unmatched', '4xx'],
    ] as const;
    for (const [path, route, status] of cases) {
      const before = await scrape(metricsUrl);
      const res = await fetch(`${url}${path}`);
      await res.arrayBuffer();
      const after = await scrape(metricsUrl);
      expect(counted(after, route, status) - counted(before, route, status), path.slice(0, 40)).toBe(1);
      expect(after.samples.some((s) => s.labels.route?.includes('yyy'))).toBe(false);
    }
  });

  it(`adds no series for ${REQUESTS} requests to unknown paths, ids and query strings`, async () => {
    const r = random(26);
    const get = async (path: string) => {
      const res = await fetch(`${url}${path}`);
      await res.arrayBuffer();
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    };
    // Each shape once, so the series it counts under exist (its route and status class, its queries).
    for (const shape of SHAPES) await get(shape(r));
    await scrape(metricsUrl);
    const before = await scrape(metricsUrl);
    let sent = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (sent < REQUESTS) {
          sent++;
          await get(SHAPES[Math.floor(r.next() * SHAPES.length)]!(r));
        }
      }),
    );
    const after = await scrape(metricsUrl);
    const unmatched = (e: Exposition) =>
      e.samples
        .filter((s) => s.name === 'explorer_http_requests_total' && s.labels.route === 'unmatched')
        .reduce((n, s) => n + s.value, 0);
    console.log(
      `metrics: ${explorerSeries(before)} explorer_ series before ${REQUESTS} requests to unknown paths, ids and query strings, ${explorerSeries(after)} after (${after.samples.length} series in all)`,
    );
    expect(explorerSeries(after)).toBe(explorerSeries(before));
    // The statements' series are named by the code's statement names, never by what a request sent.
    const queries = new Set(after.samples.map((s) => s.labels.query).filter(Boolean));
    for (const q of queries) expect(q).toMatch(/^[a-z][A-Za-z0-9-]{0,40}(\.[A-Za-z0-9-]{1,40}){0,3}$/);
    expect(new Set(after.samples.map((s) => s.labels.route).filter(Boolean))).toEqual(
      new Set(before.samples.map((s) => s.labels.route).filter(Boolean)),
    );
    expect(unmatched(after) - unmatched(before)).toBeGreaterThan(REQUESTS / 4);
  });

  it('keeps serving the API when the metrics port is taken, after one warning that says what to set', async () => {
    const second = captureLog();
    const port = new URL(metricsUrl).port;
    const api = await createRuntime(
      loadConfig(
        {
          EXPLORER_DATA_DIR: await seedDataDir(join(root, 'second')),
          PORT: '0',
          METRICS_PORT: port,
          NODE_RPC_URL: 'http://u:p@127.0.0.1:9',
        },
        { index: false },
      ),
      { log: second.log },
    );
    try {
      expect(api.metricsUrl).toBeNull();
      expect((await fetch(`${api.url}/v1/status`)).status).toBe(200);
      const warnings = second.entries().filter((e) => e.level === 'warn');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.msg).toBe(
        `metrics: 127.0.0.1:${port} is in use, so this process serves no metrics; set METRICS_PORT to a free port (0 picks one), or METRICS_PORT=off`,
      );
    } finally {
      await api.close();
    }
    // The first process's metrics were never disturbed.
    expect((await fetch(metricsUrl)).status).toBe(200);
  });

  it('names in the Grafana dashboard and the alert rules only metrics the explorer exports', async () => {
    const exported = queryableNames(await scrape(metricsUrl));
    const dashboard = JSON.parse(readFileSync(join(standalone, 'grafana-dashboard.json'), 'utf8'));
    const exprs: string[] = dashboard.panels.flatMap((p: { targets?: { expr: string }[] }) =>
      (p.targets ?? []).map((t) => t.expr),
    );
    expect(exprs.length).toBeGreaterThan(20);
    const variables: string[] = dashboard.templating.list
      .filter((v: { type: string }) => v.type === 'query')
      .map((v: { definition: string }) => /^label_values\((\w+),/.exec(v.definition)![1]!);
    const read = new Set([...exprs.flatMap(metricNames), ...variables]);
    const rules = readFileSync(join(standalone, 'prometheus-alerts.yml'), 'utf8');
    // `up` is Prometheus' own; every other name is one of ours.
    const ruleExprs = [...rules.matchAll(/expr: (?:\|\n((?: {10}.*\n)+)|(.+))/g)].map((m) => m[1] ?? m[2]!);
    expect(ruleExprs.length).toBeGreaterThan(8);
    const ruleNames = new Set(ruleExprs.flatMap(metricNames).filter((n) => n !== 'up'));
    expect([...read].filter((n) => !exported.has(n))).toEqual([]);
    expect([...ruleNames].filter((n) => !exported.has(n))).toEqual([]);
    // The panels the operations guide promises are there.
    for (const name of [
      'explorer_http_request_duration_seconds_bucket',
      'explorer_rate_limit_refusals_total',
      'explorer_indexer_lag_seconds',
      'explorer_db_pool_waiting',
      'explorer_webhook_outbox_depth',
      'explorer_mempool_vbytes',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(read).toContain(name);
  });
});

describe('metric hooks', () => {
  it('count rate-limit refusals by bucket: anonymous, a configured tier, or key', async () => {
    const metrics = createMetrics({ version: 'test' });
    const tiers = { pro: 1 };
    const limiter = metrics.countRefusals(
      createRateLimiter({ policy: { windowSeconds: 60, anonymous: 1, key: 1, tiers } }),
      tiers,
    );
    const key = (keyId: string, tier: string): Identity => ({ type: 'key', keyId, name: keyId, tier });
    for (const identity of [
      { type: 'anonymous' } as const,
      key('a', 'pro'),
      key('b', 'gold'),
      key('c', 'x'),
    ]) {
      expect((await limiter.consume(identity, '203.0.113.9')).allowed).toBe(true);
      expect((await limiter.consume(identity, '203.0.113.9')).allowed).toBe(false);
    }
    const m = parseExposition(await metrics.registry.metrics());
    const refusals = m.samples.filter((s) => s.name === 'explorer_rate_limit_refusals_total');
    // An unconfigured tier counts as `key`, so tier names from the key table never become label values.
    expect(Object.fromEntries(refusals.map((s) => [s.labels.bucket, s.value]))).toEqual({
      anonymous: 1,
      pro: 1,
      key: 2,
    });
    expect(limiter.health?.()).toMatchObject({ store: 'memory', ok: true });
  });

  it('leave gauges whose source is not there yet unknown (NaN), and zero where nothing is served', async () => {
    const m = parseExposition(await createMetrics({ version: 'test' }).registry.metrics());
    expect(sampleValue(m, 'explorer_indexer_height')).toBeNaN();
    expect(sampleValue(m, 'explorer_indexer_state', { state: 'unknown' })).toBe(1);
    expect(sampleValue(m, 'explorer_event_subscribers')).toBe(0);
    expect(sampleValue(m, 'explorer_indexer_blocks_total')).toBe(0);
  });
});
