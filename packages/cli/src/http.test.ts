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
        const url = new URL(String(input));
        seen.push({ url: url.pathname + url.search, key: new Headers(init?.headers).get('x-api-key') });
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
      fetch: async () => json(429, { ok: false, error: 'slow down', meta: { requestId: 'req-1' } }),
    });
    const err = await http.get('/v1/blocks').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliApiError);
    expect(err).toMatchObject({ status: 429, message: 'slow down', requestId: 'req-1', retryable: true });
    expect((err as CliApiError).exitCode).toBe(EXIT.rateLimited);
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
