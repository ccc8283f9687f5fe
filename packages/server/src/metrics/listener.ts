import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@explorer/core';
import type { Registry } from 'prom-client';

/** The bound `/metrics` listener. */
export interface MetricsListener {
  /** `http://host:port/metrics`. */
  url: string;
  close(): Promise<void>;
}

/** Where the listener binds: METRICS_HOST and METRICS_PORT (0: a free port). */
export interface MetricsAddress {
  host: string;
  port: number;
}

/**
 * Serves the registry in Prometheus' text format at `GET /metrics`, on a listener of its own beside the API's
 * (never the public port: what it shows is for the operator, and scrapes must not count against a rate limit).
 * A port that cannot be bound is not fatal: the process goes on serving without metrics, after one warning
 * that says what to set; the promise then resolves with null.
 * @example const listener = await serveMetrics(metrics.registry, { host: '127.0.0.1', port: 9464 }, log)
 */
export async function serveMetrics(
  registry: Registry,
  address: MetricsAddress,
  log: Logger,
): Promise<MetricsListener | null> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        log.warn({ err: (err as Error).message }, 'metrics: collecting failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('collecting failed\n');
      },
    );
  });
  // A scrape is one short request; nothing should hold the listener open at shutdown.
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const bound = await new Promise<AddressInfo | NodeJS.ErrnoException>((resolve) => {
    server.once('error', resolve);
    server.listen({ port: address.port, host: address.host, exclusive: true }, () => {
      server.off('error', resolve);
      resolve(server.address() as AddressInfo);
    });
  });
  if (bound instanceof Error) {
    const where = `${address.host}:${address.port}`;
    log.warn(
      { host: address.host, port: address.port, err: bound.code ?? bound.message },
      bound.code === 'EADDRINUSE'
        ? `metrics: ${where} is in use, so this process serves no metrics; set METRICS_PORT to a free port (0 picks one), or METRICS_PORT=off`
        : `metrics: cannot listen on ${where} (${bound.message}), so this process serves no metrics; set METRICS_HOST and METRICS_PORT, or METRICS_PORT=off`,
    );
    return null;
  }
  server.on('error', (err) => log.warn({ err: err.message }, 'metrics: listener error'));
  const host = bound.address.includes(':') ? `[${bound.address}]` : bound.address;
  const url = `http://${host}:${bound.port}/metrics`;
  log.info({ url }, `metrics listening on ${url}`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
