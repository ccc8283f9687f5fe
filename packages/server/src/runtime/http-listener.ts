import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Logger, type Protocol, protocolOf, ServiceUnavailableError } from '@explorer/core';
import { serve } from '@hono/node-server';
import type { ServerConfig } from '../config/index.js';
import { attachClientErrorHandler } from '../http/client-errors.js';
import { requestIdOf, serverErrorBody } from '../http/server-envelope.js';

function listen(
  server: ReturnType<typeof serve>,
  ready: Promise<AddressInfo>,
  what: string,
): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(new Error(listenProblem(what, err)));
    server.once('error', onError);
    ready.then((info) => {
      server.off('error', onError);
      resolve(info);
    }, reject);
  });
}

/** The one line a failed bind is reported with. */
export function listenProblem(what: string, err: NodeJS.ErrnoException): string {
  return err.code === 'EADDRINUSE'
    ? `cannot listen on ${what}: address in use; stop what holds it, or choose another --port (PORT)`
    : `cannot listen on ${what}: ${err.message}`;
}

/** The bound HTTP server: it answers 503 until serve() hands it the app. */
export interface HttpListener {
  info: AddressInfo;
  /** The Node server (WebSocket upgrades attach to it). */
  server: HttpServer;
  serve(fetch: (req: Request, env: unknown) => Response | Promise<Response>): void;
  /** Stops accepting and lets in-flight requests finish, at most drainMs. */
  close(): Promise<void>;
}

const STARTING = 'the explorer is starting; retry shortly';

/**
 * The answer before the app is ready: 503 with Retry-After, as the envelope, or in the words of the protocol
 * whose prefix the path is under (an Esplora client polling a restarting server reads plain text).
 */
export function startingResponse(req: Request, protocols: readonly Protocol[]): Response {
  const requestId = requestIdOf(req.headers);
  const headers = { 'retry-after': '1', 'x-request-id': requestId, 'cache-control': 'no-store' };
  const protocol = protocols.length > 0 ? protocolOf(protocols, new URL(req.url).pathname) : null;
  if (protocol) {
    const { contentType, body } = protocol.error(new ServiceUnavailableError(STARTING, 1));
    return new Response(body, { status: 503, headers: { 'content-type': contentType, ...headers } });
  }
  return new Response(serverErrorBody(requestId, STARTING), {
    status: 503,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/**
 * Binds the port before anything else starts, so a port in use is reported at once; until the app is ready,
 * requests get a 503 with Retry-After (in the words of the protocol a path is under: `protocols`).
 */
export async function bindHttp(
  config: ServerConfig,
  log: Logger,
  drainMs: number,
  protocols: readonly Protocol[] = [],
): Promise<HttpListener> {
  let fetchApp: ((req: Request, env: unknown) => Response | Promise<Response>) | null = null;
  let resolveReady: (info: AddressInfo) => void = () => {};
  const ready = new Promise<AddressInfo>((r) => {
    resolveReady = r;
  });
  const server = serve(
    {
      fetch: (req, env) => (fetchApp ? fetchApp(req, env) : startingResponse(req, protocols)),
      port: config.port,
      hostname: config.host,
      serverOptions: { maxHeaderSize: config.maxHeaderSize },
    },
    (info) => resolveReady(info),
  );
  attachClientErrorHandler(server, log, () => fetchApp);
  // Slow clients cannot hold connections open: the head must arrive in 10 s, the request in 30 s.
  const httpServer = server as { headersTimeout?: number; requestTimeout?: number };
  httpServer.headersTimeout = 10_000;
  httpServer.requestTimeout = 30_000;
  const info = await listen(server, ready, `${config.host}:${config.port}`).catch((err) => {
    server.close();
    throw err;
  });
  return {
    info,
    server: server as HttpServer,
    serve(fetch) {
      fetchApp = fetch;
    },
    close: () =>
      new Promise<void>((resolve) => {
        // Idle keep-alive sockets would hold close() open; busy ones get drainMs to finish.
        const force = setTimeout(() => {
          log.warn({ drainMs }, 'in-flight requests did not finish in time; closing their connections');
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        }, drainMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      }),
  };
}
