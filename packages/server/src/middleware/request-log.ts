import type { Logger } from '@explorer/core';
import type { MiddlewareHandler } from 'hono';
import { headerOf } from './response-parts.js';

/** Options of the request log. */
export interface RequestLogOptions {
  log: Logger;
  /** Monotonic milliseconds (tests pin it). */
  clock?: () => number;
}

// Query parameters whose values are credentials or look like them; their values never reach a log.
const SECRET_PARAM = /key|token|secret|password|passwd|auth|signature|session/i;

/** The path and query of a URL with the values of credential-like parameters replaced by `[redacted]`. */
export function loggablePath(rawUrl: string): string {
  if (!rawUrl.includes('?')) {
    // Nothing to redact: the path as sent (the URL parser would only normalise it).
    const start = rawUrl.indexOf('/', rawUrl.indexOf('//') + 2);
    if (start >= 0 && !rawUrl.includes('#')) return rawUrl.slice(start);
  }
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return '[unparseable]';
  }
  if (!url.search) return url.pathname;
  const parts: string[] = [];
  for (const [k, v] of url.searchParams) {
    const value = SECRET_PARAM.test(k) ? '[redacted]' : v;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(value)}`);
  }
  return `${url.pathname}?${parts.join('&')}`;
}

/**
 * Writes one JSON line per request: requestId, method, path, status, durationMs, bytes. Headers are never
 * logged, so API keys (X-API-Key, Authorization) cannot leak into logs.
 * @example app.use(requestLog({ log }))
 */
export function requestLog(opts: RequestLogOptions): MiddlewareHandler {
  const clock = opts.clock ?? (() => performance.now());
  return async (c, next) => {
    const started = clock();
    await next();
    const res = c.res;
    const length = headerOf(c, 'content-length');
    const fields = {
      requestId: headerOf(c, 'x-request-id'),
      method: c.req.method,
      path: loggablePath(c.req.url),
      status: res.status,
      durationMs: Math.round((clock() - started) * 10) / 10,
      bytes: length !== null ? Number(length) : res.body ? null : 0,
    };
    if (res.status >= 500) opts.log.warn(fields, 'request');
    else opts.log.info(fields, 'request');
  };
}
