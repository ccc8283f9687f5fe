import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Authenticator,
  createExplorerApi,
  DEFAULT_EVENT_LIMITS,
  type EventFeed,
  type EventLimits,
  type Logger,
  type RateLimiter,
  type Store,
  v1Routes,
} from '@explorer/core';
import { failingStore } from '@explorer/testing';
import { serve } from '@hono/node-server';
import { createServerApp } from '../http/app.js';
import { attachClientErrorHandler } from '../http/client-errors.js';

/** Serves an app over real HTTP on 127.0.0.1 at a free port. */
export async function serveApp(
  fetch: (req: Request, env: unknown) => Response | Promise<Response>,
  opts: { maxHeaderSize?: number; log?: Logger } = {},
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  let server!: ReturnType<typeof serve>;
  const info = await new Promise<AddressInfo>((resolve) => {
    server = serve(
      {
        fetch,
        port: 0,
        hostname: '127.0.0.1',
        serverOptions: { maxHeaderSize: opts.maxHeaderSize ?? 16_384 },
      },
      resolve,
    );
  });
  if (opts.log) attachClientErrorHandler(server, opts.log, () => fetch);
  return {
    url: `http://127.0.0.1:${info.port}`,
    server: server as Server,
    close: () =>
      new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** The API and app over a store, with the given access pieces, served over HTTP. */
export async function serveExplorer(opts: {
  store?: Store;
  log: Logger;
  rateLimiter?: RateLimiter;
  authenticate?: Authenticator;
  node?: Parameters<typeof createExplorerApi>[0]['node'];
  maxUrlLength?: number;
  maxHeaderSize?: number;
  events?: EventFeed;
  eventLimits?: Partial<EventLimits>;
}) {
  const api = createExplorerApi({
    store: opts.store ?? failingStore,
    routes: v1Routes,
    node: opts.node ?? null,
    config: { tipCacheMs: 0, events: { ...DEFAULT_EVENT_LIMITS, ...opts.eventLimits } },
    events: opts.events,
    authenticate: opts.authenticate,
    rateLimiter: opts.rateLimiter,
    onError: (err, info) => opts.log.error({ ...info, err }, 'request failed'),
  });
  const app = createServerApp({
    api,
    log: opts.log,
    rateLimiter: opts.rateLimiter,
    maxUrlLength: opts.maxUrlLength,
  });
  const served = await serveApp((req, env) => app.fetch(req, env as never), opts);
  return { ...served, api };
}
