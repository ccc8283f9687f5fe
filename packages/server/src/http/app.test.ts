import { gunzipSync } from 'node:zlib';
import { type ApiAnswer, type RateLimiter, toResponse } from '@explorer/core';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { type ApiHandler, createServerApp } from './app.js';

function setup(opts: { trustProxy?: boolean; body?: string; parts?: boolean } = {}) {
  const lines: string[] = [];
  const log = createLogger({ level: 'debug', stream: { write: (s) => lines.push(s) } });
  const calls: { url: string; clientAddress: string | null | undefined }[] = [];
  const answers: ApiAnswer[] = [];
  const answer = async (request: Request, options?: { clientAddress?: string | null }) => {
    calls.push({ url: request.url, clientAddress: options?.clientAddress });
    return {
      status: new URL(request.url).pathname === '/nope' ? 404 : 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-1', etag: '"abc"' },
      body: opts.body ?? '{"ok":true}',
    };
  };
  // The API's answers come as data the server amends from its parts; an API giving only Responses must work
  // as well.
  const api: ApiHandler = opts.parts
    ? {
        handle: async () => {
          throw new Error('the server serves an API that has answer() from its parts');
        },
        answer: async (request, options) => {
          const a = await answer(request, options);
          answers.push(a);
          return a;
        },
      }
    : { handle: async (request, options) => toResponse(await answer(request, options)) };
  const app = createServerApp({ api, log, trustProxy: opts.trustProxy ?? false });
  // What @hono/node-server passes as env; getConnInfo reads the socket's peer from it.
  const env = { incoming: { socket: { remoteAddress: '10.0.0.7', remotePort: 5000, remoteFamily: 'IPv4' } } };
  const request = (path: string, init?: RequestInit) => app.request(path, init, env);
  return { app, request, lines, calls, answers };
}

describe('createServerApp', () => {
  it('hands /v1 and unknown paths to the API, with the socket address', async () => {
    const { request, calls } = setup();
    expect((await request('/v1/blocks?limit=2')).status).toBe(200);
    expect((await request('/nope')).status).toBe(404);
    expect(calls).toEqual([
      { url: 'http://localhost/v1/blocks?limit=2', clientAddress: '10.0.0.7' },
      { url: 'http://localhost/nope', clientAddress: '10.0.0.7' },
    ]);
  });

  it('answers / with the index document and a request id', async () => {
    const { request, calls } = setup();
    const res = await request('/', { headers: { 'x-request-id': 'mine-42' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('mine-42');
    expect(await res.json()).toMatchObject({
      name: expect.any(String),
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      docs: '/docs',
      openapi: '/v1/openapi.json',
      status: '/v1/status',
    });
    expect(calls).toEqual([]);
  });

  it('answers /favicon.ico with an empty, cacheable 204 instead of a 404 in browsers opening the JSON', async () => {
    const { request, calls } = setup();
    const res = await request('/favicon.ico');
    expect(res.status).toBe(204);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(await res.text()).toBe('');
    expect(calls).toEqual([]);
  });

  it('writes one request line with requestId and status, and no key anywhere', async () => {
    const { request, lines } = setup();
    await request('/v1/blocks?apiKey=sk_live_SECRET&limit=5&token=t0k', {
      headers: { 'x-api-key': 'sk_live_SECRET', authorization: 'Bearer sk_live_SECRET' },
    });
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({
      level: 'info',
      msg: 'request',
      requestId: 'req-1',
      method: 'GET',
      status: 200,
      bytes: 11,
      path: '/v1/blocks?apiKey=%5Bredacted%5D&limit=5&token=%5Bredacted%5D',
    });
    expect(typeof entry.time).toBe('string');
    expect(typeof entry.durationMs).toBe('number');
    expect(lines[0]).not.toContain('SECRET');
    expect(lines[0]).not.toContain('t0k');
  });

  it('adds Server-Timing and X-Response-Time', async () => {
    const res = await setup().request('/v1/status');
    expect(res.headers.get('server-timing')).toMatch(/^app;dur=\d+(\.\d)?$/);
    expect(res.headers.get('x-response-time')).toMatch(/^\d+ms$/);
  });

  it('gzips large bodies for clients that accept gzip, and leaves the rest alone', async () => {
    const big = JSON.stringify({ ok: true, blocks: Array.from({ length: 200 }, (_, i) => ({ height: i })) });
    const { request, lines } = setup({ body: big });
    const zipped = await request('/v1/blocks', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(zipped.headers.get('etag')).toBe('W/"abc"');
    const bytes = Buffer.from(await zipped.arrayBuffer());
    expect(Number(zipped.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.length).toBeLessThan(big.length);
    expect(gunzipSync(bytes).toString()).toBe(big);
    expect(JSON.parse(lines[0]!).bytes).toBe(bytes.length);

    const plain = await request('/v1/blocks');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(big);
    const refused = await request('/v1/blocks', { headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
  });

  it('amends the API’s own responses from their parts, without converting them', async () => {
    const big = JSON.stringify({ ok: true, blocks: Array.from({ length: 200 }, (_, i) => ({ height: i })) });
    const { request, lines, answers } = setup({ body: big, parts: true });
    const zipped = await request('/v1/blocks', { headers: { 'accept-encoding': 'gzip' } });
    expect(answers).toHaveLength(1);
    expect(Object.fromEntries(zipped.headers)).toMatchObject({
      'content-encoding': 'gzip',
      'x-request-id': 'req-1',
      etag: 'W/"abc"',
      vary: 'Accept-Encoding',
      'server-timing': expect.stringMatching(/^app;dur=/),
      'x-response-time': expect.stringMatching(/^\d+ms$/),
    });
    const bytes = Buffer.from(await zipped.arrayBuffer());
    expect(zipped.headers.get('content-length')).toBe(String(bytes.length));
    expect(gunzipSync(bytes).toString()).toBe(big);
    expect(JSON.parse(lines[0]!)).toMatchObject({ requestId: 'req-1', bytes: bytes.length, status: 200 });

    const plain = await request('/v1/blocks');
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(big)));
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(big);
  });

  it('routes with Hono’s RegExpRouter: no route keeps the app on a slower router', async () => {
    const { app, request } = setup({ parts: true });
    expect((await request('/docs/assets/docs-init.js')).headers.get('content-type')).toMatch(/javascript/);
    expect((await request('/v1/blocks/1')).status).toBe(200);
    expect(app.router.name).toBe('SmartRouter + RegExpRouter');
  });

  it('does not compress small bodies', async () => {
    const res = await setup().request('/v1/status', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe('{"ok":true}');
  });

  it('ignores X-Forwarded-For unless trustProxy is set', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' };
    const untrusted = setup();
    await untrusted.request('/v1/status', { headers });
    expect(untrusted.calls[0]!.clientAddress).toBe('10.0.0.7');
    const trusted = setup({ trustProxy: true });
    await trusted.request('/v1/status', { headers });
    expect(trusted.calls[0]!.clientAddress).toBe('203.0.113.9');
    await trusted.request('/v1/status');
    expect(trusted.calls[1]!.clientAddress).toBe('10.0.0.7');
  });

  it('turns an exception in the API into a logged 500 envelope', async () => {
    const lines: string[] = [];
    const log = createLogger({ stream: { write: (s) => lines.push(s) } });
    const app = createServerApp({
      api: {
        handle: async () => {
          throw new Error('kaboom');
        },
      },
      log,
    });
    const res = await app.request('/v1/status');
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      ok: false,
      error: 'internal error',
      meta: { requestId: expect.any(String) },
    });
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['unhandled error', 'request']);
  });

  it('counts the answers it gives without the API against the anonymous bucket, and turns them into 429 past the limit', async () => {
    const log = createLogger({ level: 'silent' });
    const counted: unknown[] = [];
    const rateLimiter: RateLimiter = {
      consume: async (identity, address) => {
        counted.push([identity, address]);
        const remaining = 1 - counted.length;
        return {
          allowed: remaining >= 0,
          bucket: 'anon:x',
          limit: 1,
          remaining: Math.max(0, remaining),
          reset: 4_000_000_000,
          windowSeconds: 60,
        };
      },
    };
    const app = createServerApp({ api: { handle: async () => new Response(null) }, log, rateLimiter });
    expect(
      (await app.request('/favicon.ico', { method: 'OPTIONS' })).headers.get('x-ratelimit-limit'),
    ).toBeNull();
    const first = await app.request('/favicon.ico');
    expect(first.status).toBe(204);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await app.request('/favicon.ico');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(1);
    expect(over.headers.get('x-ratelimit-limit')).toBe('1');
    expect(await over.json()).toMatchObject({
      ok: false,
      error: expect.stringMatching(/rate limit exceeded/),
      meta: { indexedTip: -1 },
    });
    expect(counted).toEqual([
      [{ type: 'anonymous' }, null],
      [{ type: 'anonymous' }, null],
    ]);
  });
});
