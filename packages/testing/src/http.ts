import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server listening on 127.0.0.1 at a free port. */
export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Listens with a raw node:http handler (for servers that misbehave on purpose).
 * @example const s = await listen((req) => req.socket.destroy()); await s.close()
 */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<TestServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Serves a fetch-style handler (such as `api.handle`) over real HTTP: a tiny node:http adapter.
 * @example const s = await serveFetch((req) => api.handle(req)); createExplorerClient({ baseUrl: s.url })
 */
export function serveFetch(handler: (req: Request) => Response | Promise<Response>): Promise<TestServer> {
  return listen((req, res) => {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers });
    Promise.resolve(handler(request))
      .then(async (response) => {
        const body = Buffer.from(await response.arrayBuffer());
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(req.method === 'HEAD' ? undefined : body);
      })
      .catch((err: Error) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err?.stack ?? err));
      });
  });
}

/**
 * Ports on 127.0.0.1 that were free a moment ago (held together, so they differ, then released), for programs
 * that want their ports given.
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: n }, () => listen(() => {})));
  await Promise.all(servers.map((s) => s.close()));
  return servers.map((s) => Number(new URL(s.url).port));
}

/** GETs a URL and parses its JSON body (whatever the status). */
export async function getJson(url: string): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, body: await res.json() };
}
