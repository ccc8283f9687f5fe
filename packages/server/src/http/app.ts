import type { ApiAnswer, HandleOptions, Logger, RateLimiter } from '@explorer/core';
import { Hono } from 'hono';
import { compression } from '../middleware/compression.js';
import { apiAnswered, type HttpMetricsSink, httpMetrics } from '../middleware/http-metrics.js';
import { rateLimitHeaders } from '../middleware/rate-limit-headers.js';
import { requestBounds } from '../middleware/request-bounds.js';
import { requestLog } from '../middleware/request-log.js';
import { respondWith } from '../middleware/response-parts.js';
import { timing } from '../middleware/timing.js';
import { createDocsPage } from '../pages/docs-page.js';
import { rootHandler } from '../pages/root-page.js';
import { SERVER_VERSION } from '../version.js';
import { clientAddress } from './client-address.js';
import { requestIdOf, serverErrorBody } from './server-envelope.js';

/** The part of @explorer/core's ExplorerApi the server needs. */
export interface ApiHandler {
  handle(request: Request, options?: HandleOptions): Promise<Response>;
  /**
   * The same answer as data; when present the server serves it from its parts, which its middleware amends
   * without reading a Response back (core's ExplorerApi has it).
   */
  answer?(request: Request, options?: HandleOptions): Promise<ApiAnswer>;
}

/** What the Hono app is built from. */
export interface ServerAppDeps {
  api: ApiHandler;
  log: Logger;
  /** Take the client address from X-Forwarded-For (only behind a proxy you control). */
  trustProxy?: boolean;
  /** Bodies at least this large are gzipped for clients that accept it (default 1,024 bytes). */
  compressThreshold?: number;
  /** The address clients reach this server at, for the examples at `/` (default: each request's origin). */
  publicBaseUrl?: string;
  /** Name and version announced at `/` (default `explorer` and the package version). */
  info?: { name: string; version: string };
  /**
   * The limiter the API counts with; the app counts the answers it gives without the API with it (see core's
   * countRequest), so every response carries X-RateLimit-* headers.
   */
  rateLimiter?: RateLimiter | null;
  /** Longest request path and query in bytes; longer gets 414 (default 14,336). */
  maxUrlLength?: number;
  /** Where each request is counted (the process's metrics); absent: nothing is counted. */
  metrics?: HttpMetricsSink | null;
}

/**
 * Builds the Hono app: logging, timing and compression around the explorer API, the front door at `/` (an
 * HTML page for browsers, a JSON index for programs) and the rendered reference at `/docs`.
 * @example serve({ fetch: createServerApp({ api, log }).fetch, port: 3000 })
 */
export function createServerApp(deps: ServerAppDeps): Hono {
  const info = deps.info ?? { name: 'explorer', version: SERVER_VERSION };
  const trustProxy = deps.trustProxy ?? false;
  const app = new Hono();
  const metrics = deps.metrics ?? null;

  if (metrics) app.use(httpMetrics(metrics));
  app.use(requestLog({ log: deps.log }));
  app.use(timing());
  app.use(compression({ threshold: deps.compressThreshold ?? 1024 }));
  if (deps.rateLimiter) {
    app.use(
      rateLimitHeaders({ limiter: deps.rateLimiter, clientAddress: (c) => clientAddress(c, { trustProxy }) }),
    );
  }
  app.use(requestBounds({ maxUrlLength: deps.maxUrlLength }));

  // The front door: a page for browsers (status and latest blocks, read through the API), JSON for programs.
  app.get(
    '/',
    rootHandler({
      api: deps.api,
      info,
      publicBaseUrl: deps.publicBaseUrl,
      clientAddress: (c) => clientAddress(c, { trustProxy }),
    }),
  );

  // Browsers ask for an icon beside any page without one (the JSON documents): answer with none, cacheable,
  // rather than a 404 in every console.
  app.get('/favicon.ico', (c) => c.body(null, 204, { 'cache-control': 'public, max-age=86400' }));

  // The rendered reference; /v1/docs stays the API's JSON.
  app.route('/docs', createDocsPage());

  // Every other path goes to the API, which answers unknown ones with its own 404 envelope.
  app.all('*', async (c) => {
    const options = {
      clientAddress: clientAddress(c, { trustProxy }),
      // A slow event-stream consumer is cut at the socket: its queued bytes are dropped, not written.
      cutConnection: () => (c.env as { outgoing?: { destroy(): void } } | undefined)?.outgoing?.destroy(),
      answered: metrics ? apiAnswered(c, metrics) : undefined,
    };
    if (!deps.api.answer) return deps.api.handle(c.req.raw, options);
    return respondWith(c, await deps.api.answer(c.req.raw, options));
  });

  app.onError((err, c) => {
    const requestId = requestIdOf(c.req.raw.headers);
    deps.log.error({ requestId, err }, 'unhandled error');
    return c.body(serverErrorBody(requestId, 'internal error'), 500, {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': requestId,
      'cache-control': 'no-store',
    });
  });

  return app;
}
