import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createExplorerApi, type ExplorerApi, v1Routes } from '@explorer/core';
import { createSqlStore, DirectoryLockedError, dataDirInUse, openDatabase, type Sql } from '@explorer/db';

/** What the example server is built from: a database the indexer writes into. */
export interface ExampleServerDeps {
  sql: Sql;
}

/** The running example: its URL and a way to stop it. */
export interface ExampleServer {
  server: Server;
  api: ExplorerApi;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

/** Turns a node:http request into a Web-standard Request (bodies are streamed through for non-GET methods). */
export function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  return new Request(url, {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req), duplex: 'half' } : {}),
  } as RequestInit);
}

/** Copies a Web-standard Response onto a node:http response. */
export async function sendResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

/**
 * An existing node:http server with its own routes, which also answers `/v1/*` from the explorer.
 * @example const app = createExampleServer({ sql }); console.log(await app.listen(3000));
 */
export function createExampleServer(deps: ExampleServerDeps): ExampleServer {
  const api = createExplorerApi({ store: createSqlStore(deps.sql), routes: v1Routes });

  const server = createServer(async (req, res) => {
    try {
      const path = (req.url ?? '/').split('?')[0]!;
      // The host application's own routes come first …
      if (path === '/health') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'ok' }));
        return;
      }
      // … and everything under /v1 goes to the explorer, which answers unknown /v1 paths with its 404 envelope.
      if (path === '/v1' || path.startsWith('/v1/')) {
        const response = await api.handle(toRequest(req), {
          clientAddress: req.socket.remoteAddress ?? null,
        });
        await sendResponse(response, res);
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found\n');
    } catch (err) {
      console.error(err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error\n');
    }
  });

  return {
    server,
    api,
    listen(port = 3000, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const { port: bound } = server.address() as AddressInfo;
          resolve(`http://${host}:${bound}`);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
    },
  };
}

async function main(): Promise<void> {
  // PostgreSQL when DATABASE_URL is set, otherwise the embedded database the demo (`npm start`) indexed.
  // `npm --prefix examples/… start` runs in this folder; INIT_CWD is where the command was typed (the repo root).
  const dataDir = process.env.EXPLORER_DATA_DIR ?? join(process.env.INIT_CWD ?? process.cwd(), '.explorer');
  if (!process.env.DATABASE_URL && !existsSync(join(dataDir, 'pgdata'))) {
    console.error(
      `no indexed database at ${dataDir}: set DATABASE_URL, or run \`npm start\` once and stop it`,
    );
    process.exit(1);
  }
  // The demo (`npm start`) holds its data dir while it runs: say so in one line, as explorer-server does.
  const sql = await openDatabase({ url: process.env.DATABASE_URL, dataDir }).catch((err: unknown) => {
    if (!(err instanceof DirectoryLockedError)) throw err;
    console.error(dataDirInUse(err, 'data dir (EXPLORER_DATA_DIR)'));
    process.exit(1);
  });
  const app = createExampleServer({ sql });
  const url = await app.listen(Number(process.env.PORT ?? 3001));
  console.log(`listening on ${url} (try ${url}/health and ${url}/v1/blocks?limit=3)`);
  const stop = async () => {
    await app.close();
    await sql.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
