import { listen, type TestServer } from '@explorer/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createExplorerClient } from './client.js';
import { ExplorerApiError } from './errors/api-error.js';
import { ExplorerNetworkError } from './errors/network-error.js';
import { ExplorerTimeoutError } from './errors/timeout-error.js';
import { buildUrl } from './transport.js';

const ok = (extra: object = {}) =>
  JSON.stringify({
    ok: true,
    status: { healthy: true },
    meta: { requestId: 'r-ok', indexedTip: 1, nodeHeight: 1, servedAt: new Date().toISOString() },
    ...extra,
  });
const failure = (message: string, requestId = 'r-err') =>
  JSON.stringify({
    ok: false,
    error: message,
    meta: { requestId, indexedTip: 1, nodeHeight: 1, servedAt: '' },
  });

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
const serve = async (...args: Parameters<typeof listen>) => {
  const s = await listen(...args);
  servers.push(s);
  return s;
};

describe('retries', () => {
  it('waits Retry-After on 429, then succeeds', async () => {
    const hits: number[] = [];
    const server = await serve((_req, res) => {
      hits.push(Date.now());
      if (hits.length === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(failure('rate limit exceeded; retry after 1 s'));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(ok());
      }
    });
    const retries: unknown[] = [];
    const client = createExplorerClient({ baseUrl: server.url, onRetry: (r) => retries.push(r) });
    const started = Date.now();
    const { status } = await client.status();
    expect(status.healthy).toBe(true);
    expect(hits).toHaveLength(2);
    const waited = hits[1]! - hits[0]!;
    expect(waited).toBeGreaterThanOrEqual(950);
    // Generous upper bound: a loaded CI machine may be slow; the lower bound above proves the wait.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(retries).toMatchObject([
      { operationId: 'getStatus', attempt: 1, status: 429, delayMs: 1000, retryAfter: true },
    ]);
  });

  it('calls onRetry before the wait, with the wait it is about to make', async () => {
    const hits: number[] = [];
    const server = await serve((_req, res) => {
      hits.push(Date.now());
      if (hits.length === 1) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(failure('the database is unavailable; retry shortly'));
      } else if (hits.length === 2) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(failure('bad gateway'));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(ok());
      }
    });
    const told: { at: number; delayMs: number; retryAfter: boolean; status: number | null }[] = [];
    const client = createExplorerClient({
      baseUrl: server.url,
      retry: { limit: 3, backoffMs: 50 },
      onRetry: ({ delayMs, retryAfter, status }) =>
        told.push({ at: Date.now(), delayMs, retryAfter, status }),
    });
    await client.status();
    expect(told).toMatchObject([
      { status: 503, delayMs: 1000, retryAfter: true },
      { status: 502, delayMs: 100, retryAfter: false },
    ]);
    // Told as the wait starts, not after it.
    expect(told[0]!.at - hits[0]!).toBeLessThan(500);
    expect(hits[1]! - told[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('stops a Retry-After wait when its signal is aborted', async () => {
    let hits = 0;
    const server = await serve((_req, res) => {
      hits++;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '20' });
      res.end(failure('rate limit exceeded; retry after 20 s'));
    });
    const stop = new AbortController();
    const client = createExplorerClient({
      baseUrl: server.url,
      signal: stop.signal,
      onRetry: () => stop.abort(),
    });
    const started = Date.now();
    const err = await client.status().catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(hits).toBe(1);
  });

  it('gives up at once when Retry-After is longer than maxRetryAfterMs', async () => {
    let hits = 0;
    const server = await serve((_req, res) => {
      hits++;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '60', 'x-request-id': 'hdr' });
      res.end(failure('rate limit exceeded; retry after 60 s', 'r-429'));
    });
    const client = createExplorerClient({ baseUrl: server.url, retry: { maxRetryAfterMs: 5_000 } });
    const err = await client.status().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExplorerApiError);
    expect(err).toMatchObject({ status: 429, retryAfter: 60, retryable: true, requestId: 'r-429' });
    expect(hits).toBe(1);
  });

  it('retries 503 with Retry-After and 500 with backoff, a bounded number of times', async () => {
    let hits = 0;
    const server = await serve((_req, res) => {
      hits++;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (hits % 2 === 1) headers['retry-after'] = '0';
      res.writeHead(hits % 2 === 1 ? 503 : 500, headers);
      res.end(failure('the database is unavailable; retry shortly'));
    });
    const client = createExplorerClient({ baseUrl: server.url, retry: { limit: 3, backoffMs: 10 } });
    const err = await client.blocks.get(1).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ExplorerApiError', status: 500 });
    expect(hits).toBe(4);
  });

  it('throws a 501 at once, not retryable: the server lacks the feature, no wait helps', async () => {
    let hits = 0;
    const message = 'no market-data provider is configured on this server: set MARKET_PROVIDER_URL';
    const server = await serve((_req, res) => {
      hits++;
      res.writeHead(501, { 'content-type': 'application/json' });
      res.end(failure(message, 'r-501'));
    });
    const retries: unknown[] = [];
    const client = createExplorerClient({ baseUrl: server.url, onRetry: (r) => retries.push(r) });
    const err = await client.market.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExplorerApiError);
    expect(err).toMatchObject({
      status: 501,
      message,
      requestId: 'r-501',
      retryAfter: null,
      retryable: false,
    });
    expect(hits).toBe(1);
    expect(retries).toEqual([]);
  });

  it('never retries 400 or 404', async () => {
    let hits = 0;
    const server = await serve((_req, res) => {
      hits++;
      res.writeHead(404, { 'content-type': 'application/json', 'x-request-id': 'from-header' });
      res.end('not json');
    });
    const client = createExplorerClient({ baseUrl: server.url });
    const err = await client.txs.get('a'.repeat(64)).catch((e: unknown) => e);
    // Without an envelope the status text and the header still say what happened.
    expect(err).toMatchObject({
      status: 404,
      message: 'HTTP 404 Not Found',
      requestId: 'from-header',
      body: null,
    });
    expect(hits).toBe(1);
  });

  it('retries network errors a bounded number of times, then throws ExplorerNetworkError', async () => {
    let connections = 0;
    const server = await serve((req) => {
      connections++;
      req.socket.destroy();
    });
    const client = createExplorerClient({ baseUrl: server.url, retry: { limit: 2, backoffMs: 20 } });
    const err = await client.status().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExplorerNetworkError);
    expect(err).toMatchObject({ retryable: true, url: `${server.url}/v1/status` });
    expect(connections).toBe(3);
    const none = createExplorerClient({ baseUrl: 'http://127.0.0.1:9', retry: 0 });
    const refused = await none.status().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ExplorerNetworkError);
    // Node's fetch says only "fetch failed"; the message carries the reason from its cause (fetch refuses
    // port 9 before connecting).
    expect((refused as Error).message).toBe(
      'could not reach http://127.0.0.1:9/v1/status: fetch failed (bad port)',
    );
  });

  it('throws an AbortError when its signal is aborted, whatever the fetch rejects with', async () => {
    const stop = new AbortController();
    const client = createExplorerClient({
      baseUrl: 'http://api.test',
      signal: stop.signal,
      // A fetch that reports the cancelled request as a broken connection.
      fetch: (input) =>
        new Promise((_resolve, reject) =>
          (input as Request).signal.addEventListener('abort', () => reject(new TypeError('terminated'))),
        ),
    });
    const pending = client.status().catch((e: unknown) => e);
    setTimeout(() => stop.abort(), 20);
    expect(await pending).toMatchObject({ name: 'AbortError' });
  });

  it('surfaces a timeout as ExplorerTimeoutError', async () => {
    const server = await serve(() => {
      // Never answers.
    });
    const client = createExplorerClient({ baseUrl: server.url, timeout: 150 });
    const started = Date.now();
    const err = await client.status().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExplorerTimeoutError);
    expect(err).toMatchObject({ timeoutMs: 150, retryable: true });
    // Far below a hang, generous for a loaded machine.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('requests', () => {
  it('sends the API key, custom headers and encoded parameters', async () => {
    const seen: { url?: string; key?: string; trace?: string } = {};
    const server = await serve((req, res) => {
      seen.url = req.url;
      seen.key = req.headers['x-api-key'] as string;
      seen.trace = req.headers['x-request-id'] as string;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ok({ query: 'a b', matches: [] }));
    });
    const client = createExplorerClient({
      baseUrl: `${server.url}/`,
      apiKey: 'exk_test',
      headers: { 'x-request-id': 'mine' },
    });
    await client.search('a b');
    expect(seen).toEqual({ url: '/v1/search?q=a+b', key: 'exk_test', trace: 'mine' });
  });

  it('builds URLs with encoded path parameters and without undefined query values', () => {
    expect(
      buildUrl('http://x/api/', '/v1/pools/{poolId}', { poolId: 'a/b' }, { limit: 5, cursor: undefined }),
    ).toBe('http://x/api/v1/pools/a%2Fb?limit=5');
  });
});
