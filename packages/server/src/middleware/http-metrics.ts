import type { AnswerFacts } from '@explorer/core';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { type RequestFacts, UNMATCHED_ROUTE } from '../metrics/metrics.js';

/** Where the HTTP metrics go. */
export interface HttpMetricsSink {
  /** One request answered. */
  request(facts: RequestFacts): void;
  /** What the API said of an answer it gave. */
  answered(facts: AnswerFacts): void;
}

/** What the API said of the answer to each request it answered, until the middleware counts it. */
const apiFacts = new WeakMap<Request, AnswerFacts>();

/**
 * The `answered` hook to hand the API for this request (HandleOptions): the API names the route template and
 * whether the body came from a cache, which the middleware then counts the request under.
 * @example api.answer(c.req.raw, { answered: apiAnswered(c, metrics) })
 */
export function apiAnswered(c: Context, sink: HttpMetricsSink): (facts: AnswerFacts) => void {
  return (facts) => {
    apiFacts.set(c.req.raw, facts);
    sink.answered(facts);
  };
}

/**
 * The route label of a request the API did not answer: the server's own route (`/`, `/docs/assets/{name}`);
 * anything else, and answers given by middleware before any route (414), count as UNMATCHED_ROUTE.
 */
function serverRoute(c: Context): string {
  const path = routePath(c);
  if (!path || path.includes('*')) return UNMATCHED_ROUTE;
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * Counts every request with its route template (never the raw path, so unknown paths and ids add no series),
 * status class and cache hit, and the time until its response was ready. Goes first, so that it sees the
 * final status (a 429 or 414 given by other middleware included).
 * @example app.use(httpMetrics(metrics))
 */
export function httpMetrics(
  sink: HttpMetricsSink,
  clock: () => number = () => performance.now(),
): MiddlewareHandler {
  return async (c, next) => {
    const started = clock();
    await next();
    const api = apiFacts.get(c.req.raw);
    sink.request({
      route: api ? (api.route ?? UNMATCHED_ROUTE) : serverRoute(c),
      status: c.res.status,
      cached: api?.cached ?? false,
      seconds: (clock() - started) / 1000,
    });
  };
}
