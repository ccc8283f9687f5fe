import { ApiError, refuseRequest } from '@explorer/core';
import type { MiddlewareHandler } from 'hono';
import { requestIdOf, serverErrorBody } from '../http/server-envelope.js';
import { replaceResponse } from './response-parts.js';

/** Options of the request bounds. */
export interface RequestBoundsOptions {
  /** Longest request target (path and query) in bytes (default {@link DEFAULT_MAX_URL_LENGTH}). */
  maxUrlLength?: number;
}

/**
 * The default longest request target, 14 KiB: room for a many-address request of 200 addresses of 62 characters
 * (bech32m) with its commas, while the request line and the usual headers stay under Node's 16 KiB header limit
 * (beyond which Node itself refuses the request, 431). Every parameter is bounded by its own schema besides.
 */
export const DEFAULT_MAX_URL_LENGTH = 14_336;

/** Length of the request target (path and query) of an absolute URL. */
export function targetLength(url: string): number {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  return start < 0 ? 1 : url.length - start;
}

/**
 * Refuses request targets longer than `maxUrlLength` with a 414 envelope before any routing or parsing.
 * Under /v1 the API gives that answer (marked with core's refuseRequest, it refuses the request before it
 * routes or parses it), so it carries the API's meta — indexed tip, node height — and rate-limit headers like
 * every other /v1 answer; elsewhere (`/`, `/docs`) the server's own envelope. (Headers are bounded by the HTTP
 * server's maxHeaderSize; see http/client-errors.ts.)
 * @example app.use(requestBounds({ maxUrlLength: 14_336 }))
 */
export function requestBounds(opts: RequestBoundsOptions = {}): MiddlewareHandler {
  const max = opts.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
  return async (c, next) => {
    if (targetLength(c.req.url) <= max) return next();
    const message = `the request URL is longer than ${max} bytes`;
    if (c.req.path === '/v1' || c.req.path.startsWith('/v1/')) {
      refuseRequest(c.req.raw, new ApiError(414, message));
      await next();
      // The API answered (or counted the request past the limit: 429).
      if (c.res.status === 414 || c.res.status === 429) return;
    }
    const requestId = requestIdOf(c.req.raw.headers);
    replaceResponse(
      c,
      new Response(serverErrorBody(requestId, message), {
        status: 414,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'x-request-id': requestId,
          'cache-control': 'no-store',
        },
      }),
    );
  };
}
