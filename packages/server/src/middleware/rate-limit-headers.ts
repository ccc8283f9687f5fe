import { ANONYMOUS, countRequest, type RateLimitedError, type RateLimiter } from '@explorer/core';
import type { Context, MiddlewareHandler } from 'hono';
import { requestIdOf, serverErrorBody } from '../http/server-envelope.js';
import {
  amendResponse,
  headerOf,
  type ResponseParts,
  replaceResponse,
  respondWith,
} from './response-parts.js';

/** Options of the rate-limit completion. */
export interface RateLimitHeadersOptions {
  limiter: RateLimiter;
  /** The caller's address (the same one the API counts anonymous buckets by). */
  clientAddress: (c: Context) => string | null;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

/**
 * Counts the answers the server gives without the API, through core's countRequest (which documents how every
 * request is counted), so every response carries X-RateLimit-*: a response that has them was counted by the
 * API; any other (`/`, `/docs`, the server's 414 outside /v1, a 500 the API never saw) is counted here against
 * the anonymous bucket of the client's address, and past the limit becomes a 429 with Retry-After. CORS
 * preflights are not counted.
 * @example app.use(rateLimitHeaders({ limiter, clientAddress: (c) => clientAddress(c, { trustProxy }) }))
 */
export function rateLimitHeaders(opts: RateLimitHeadersOptions): MiddlewareHandler {
  const clock = opts.clock ?? Date.now;
  return async (c, next) => {
    await next();
    if (c.req.method === 'OPTIONS' || headerOf(c, 'x-ratelimit-limit') !== null) return;
    const { headers, limited } = await countRequest(opts.limiter, ANONYMOUS, opts.clientAddress(c), clock());
    if (limited) replaceResponse(c, respondWith(c, refusal(c, limited)));
    amendResponse(c, headers);
  };
}

/** The 429 that replaces an answer past the limit: the server's envelope, with the answer's id and CORS headers. */
function refusal(c: Context, limited: RateLimitedError): ResponseParts {
  const requestId = headerOf(c, 'x-request-id') ?? requestIdOf(c.req.raw.headers);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': requestId,
    'cache-control': 'no-store',
    ...limited.headers,
  };
  for (const name of ['access-control-allow-origin', 'access-control-expose-headers', 'vary']) {
    const value = headerOf(c, name);
    if (value !== null) headers[name] = value;
  }
  const body = c.req.method === 'HEAD' ? null : serverErrorBody(requestId, limited.message);
  return { status: 429, headers, body };
}
