import { describe, expect, it } from 'vitest';
import { CliApiError, CliNetworkError, CliTimeoutError, EXIT, exitCodeForStatus } from './errors.js';
import { createHttp } from './http.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('http', () => {
  it('sends X-API-Key, unwraps the envelope, and follows nextCursor up to --max', async () => {
    const seen: { url: string; key: string | null }[] = [];
    const http = createHttp({
      baseUrl: 'http://api.test/prefix/',
      apiKey: 'k1',
      timeoutMs: 1000,
      fetch: async (input, init) => {
        const req = new Request(input, init);
        const url = new URL(req.url);
        seen.push({ url: url.pathname + url.search, key: req.headers.get('x-api-key') });
        const start = Number(url.searchParams.get('cursor') ?? 0);
        const limit = Number(url.searchParams.get('limit'));
        const rows = Array.from({ length: limit }, (_, i) => ({ n: start + i }));
        return json(200, {
          ok: true,
          rows,
          pagination: { limit, cursor: null, nextCursor: String(start + limit), hasMore: true },
          meta: { requestId: 'r' },
        });
      },
    });
    const all: unknown[] = [];
    for await (const page of http.pages('/v1/rows', {}, { listKey: 'rows', pageSize: 3, max: 7 })) {
      expect(page.data).not.toHaveProperty('ok');
      expect(page.data).not.toHaveProperty('meta');
      all.push(...page.items);
    }
    expect(all).toEqual([0, 1, 2, 3, 4, 5, 6].map((n) => ({ n })));
    // The last request asks only for what is left.
    expect(seen.map((s) => s.url)).toEqual([
      '/prefix/v1/rows?limit=3',
      '/prefix/v1/rows?limit=3&cursor=3',
      '/prefix/v1/rows?limit=1&cursor=6',
    ]);
    expect(seen.every((s) => s.key === 'k1')).toBe(true);
  });

  it('turns an error envelope into a CliApiError with status, message and requestId', async () => {
    const http = createHttp({
      baseUrl: 'http://api.test',
      timeoutMs: 1000,
      fetch: async () => json(404, { ok: false, error: 'block 9 not found', meta: { requestId: 'req-1' } }),
    });
    const err = await http.get('/v1/blocks/9').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliApiError);
    expect(err).toMatchObject({
      status: 404,
      message: 'block 9 not found',
      requestId: 'req-1',
      retryable: false,
    });
    expect((err as CliApiError).exitCode).toBe(EXIT.notFound);
  });

  it('waits the Retry-After of a 429, saying so first, then carries on', async () => {
    const hits: number[] = [];
    const told: { at: number; status: number; waitMs: number }[] = [];
    const http = createHttp({
      baseUrl: 'http://api.test',
      timeoutMs: 1000,
      onWait: (n) => told.push({ at: Date.now(), ...n }),
      fetch: async () => {
        hits.push(Date.now());
        if (hits.length === 1) {
          return new Response(JSON.stringify({ ok: false, error: 'rate limit exceeded; retry after 1 s' }), {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '1' },
          });
        }
        return json(200, { ok: true, status: { healthy: true }, meta: { requestId: 'r' } });
      },
    });
    const { data } = await http.get('/v1/status');
    expect(data).toEqual({ status: { healthy: true } });
    expect(told).toMatchObject([{ status: 429, waitMs: 1000 }]);
    expect(told[0]!.at - hits[0]!).toBeLessThan(500);
    expect(hits[1]! - hits[0]!).toBeGreaterThanOrEqual(950);
  });

  it('gives up at once on a Retry-After longer than maxWaitMs, with exit 6 and the reason', async () => {
    let hits = 0;
    const http = createHttp({
      baseUrl: 'http://api.test',
      timeoutMs: 1000,
      maxWaitMs: 5_000,
      fetch: async () => {
        hits++;
        return new Response(
          JSON.stringify({
            ok: false,
            error: 'rate limit exceeded; retry after 30 s',
            meta: { requestId: 'q' },
          }),
          { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '30' } },
        );
      },
    });
    const err = await http.get('/v1/blocks').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliApiError);
    expect(err).toMatchObject({ status: 429, retryAfter: 30, requestId: 'q', retryable: true });
    expect((err as Error).message).toBe(
      'rate limit exceeded; retry after 30 s (Retry-After 30 s is longer than --max-wait 5 s)',
    );
    expect((err as CliApiError).exitCode).toBe(EXIT.rateLimited);
    expect(hits).toBe(1);
  });

  it('reports a timeout and a refused connection as exit 8', async () => {
    const hang = createHttp({
      baseUrl: 'http://api.test',
      timeoutMs: 50,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        ),
    });
    const timeout = await hang.get('/v1/status').catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(CliTimeoutError);
    const refused = createHttp({
      baseUrl: 'http://api.test',
      timeoutMs: 1000,
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
      },
    });
    const down = await refused.get('/v1/status').catch((e: unknown) => e);
    expect(down).toBeInstanceOf(CliNetworkError);
    expect((down as Error).message).toContain('ECONNREFUSED');
    expect((down as CliNetworkError).exitCode).toBe(8);
  });

  it('maps statuses to exit codes', () => {
    expect([400, 401, 404, 405, 429, 500, 503].map(exitCodeForStatus)).toEqual([4, 5, 3, 1, 6, 7, 7]);
  });
});
