import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy that tests stop and restart to simulate a dependency going away and coming back. */
export interface TcpProxy {
  port: number;
  /** Closes the listener and cuts every open connection. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/**
 * Forwards 127.0.0.1:<port> to `target`.
 * @example const proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 }); await proxy.stop()
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          sock.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    async stop() {
      const s = server;
      server = null;
      for (const sock of sockets) sock.destroy();
      sockets.clear();
      if (s) await new Promise<void>((r) => s.close(() => r()));
    },
    start: listen,
  };
}

/** True when something accepts TCP connections at host:port within `ms`. */
export function tcpReachable(host: string, port: number, ms = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect(port, host);
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(ms, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}
