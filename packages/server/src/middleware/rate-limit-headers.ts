import { RateLimitedError, type RateLimiter } from '@explorer/core';
import type { Context, MiddlewareHandler } from 'hono';
import { requestIdOf, serverErrorBody } from '../server-envelope.js';
import { amendResponse, headerOf } from './amend.js';

/** Options of the rate-limit completion. */
export interface RateLimitHeadersOptions {
  limiter: RateLimiter;
  /** The caller's address (the same one the API counts anonymous buckets by). */
  clientAddress: (c: Context) => string | null;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

/**
 * Gives every response the X-RateLimit-* headers. The API counts a request once it knows the route and
 * the caller; answers it gives earlier (unknown path 404, 405, a refused key 401/400, the server's 414)
 * are counted here against the anonymous bucket of the client's address, so failing requests are limited
 * too (a caller guessing keys included). Past the limit they become 429. CORS preflights are not counted.
 * @example app.use(rateLimitHeaders({ limiter, clientAddress: (c) => clientAddress(c, { trustProxy }) }))
 */
export function rateLimitHeaders(opts: RateLimitHeadersOptions): MiddlewareHandler {
  const clock = opts.clock ?? Date.now;
  return async (c, next) => {
    await next();
    if (c.req.method === 'OPTIONS' || headerOf(c.res, 'x-ratelimit-limit') !== null) return;
    const r = await opts.limiter.consume({ type: 'anonymous' }, opts.clientAddress(c));
    let res = c.res;
    if (!r.allowed) {
      const limited = new RateLimitedError(Math.max(1, r.reset - Math.floor(clock() / 1000)));
      const requestId = res.headers.get('x-request-id') ?? requestIdOf(c.req.raw.headers);
      let body = serverErrorBody(requestId, limited.message);
      try {
        const meta = JSON.parse(await res.clone().text())?.meta;
        if (meta && typeof meta === 'object')
          body = JSON.stringify({ ok: false, error: limited.message, meta });
      } catch {
        // Not an envelope (HEAD, the index at /): the server's own envelope stands.
      }
      const headers = new Headers({
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': requestId,
        'cache-control': 'no-store',
        ...limited.headers,
      });
      for (const name of ['access-control-allow-origin', 'access-control-expose-headers', 'vary']) {
        const v = res.headers.get(name);
        if (v !== null) headers.set(name, v);
      }
      res = new Response(c.req.method === 'HEAD' ? null : body, { status: 429, headers });
      c.res = undefined;
      c.res = res;
    }
    amendResponse(c, {
      'x-ratelimit-limit': String(r.limit),
      'x-ratelimit-remaining': String(r.remaining),
      'x-ratelimit-reset': String(r.reset),
    });
  };
}
