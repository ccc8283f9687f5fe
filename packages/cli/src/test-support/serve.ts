import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running local HTTP server. */
export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

/** Serves a Web-standard fetch handler over node:http on 127.0.0.1 at a free port (GET only: no bodies). */
export async function serveFetch(handle: (req: Request) => Promise<Response>): Promise<LocalServer> {
  return listen(async (req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const response = await handle(new Request(`http://127.0.0.1${req.url ?? '/'}`, { headers }));
    res.statusCode = response.status;
    response.headers.forEach((value, name) => {
      res.setHeader(name, value);
    });
    res.end(Buffer.from(await response.arrayBuffer()));
  });
}

/** Serves a node:http handler on 127.0.0.1 at a free port. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<LocalServer> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((err) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
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
 * An endless list API whose every page takes `delayMs`: `/v1/blocks` pages of 5 rows with a next cursor.
 * For interrupt tests, where the real fixture answers too fast to be interrupted mid-walk.
 */
export async function serveSlowList(delayMs: number): Promise<LocalServer> {
  return listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const start = Number(url.searchParams.get('cursor') ?? '0');
    const limit = Number(url.searchParams.get('limit') ?? '5');
    await new Promise((r) => setTimeout(r, delayMs));
    const blocks = Array.from({ length: limit }, (_, i) => ({
      height: start + i,
      hash: 'ab'.repeat(32),
      txCount: 1,
    }));
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        ok: true,
        blocks,
        pagination: { limit, cursor: null, nextCursor: String(start + limit), hasMore: true },
        meta: { requestId: `slow-${start}` },
      }),
    );
  });
}
