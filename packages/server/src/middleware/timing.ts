import type { MiddlewareHandler } from 'hono';
import { amendResponse } from './response-parts.js';

/**
 * Adds `Server-Timing: app;dur=…` and `X-Response-Time: …ms` with the time spent inside the server.
 * @example app.use(timing())
 */
export function timing(clock: () => number = () => performance.now()): MiddlewareHandler {
  return async (c, next) => {
    const started = clock();
    await next();
    const ms = clock() - started;
    amendResponse(c, {
      'server-timing': `app;dur=${ms.toFixed(1)}`,
      'x-response-time': `${Math.round(ms)}ms`,
    });
  };
}
