import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { ApiError, createExplorerApi, createHandlers, type ExplorerApi, v1Routes } from '@explorer/core';
import { createSqlStore, DirectoryLockedError, dataDirInUse, openDatabase, type Sql } from '@explorer/db';
import express, {
  type Express,
  type Request as ExpressRequest,
  type Response as ExpressResponse,
  type NextFunction,
} from 'express';

/** What the example app is built from: a database the indexer writes into. */
export interface ExampleAppDeps {
  sql: Sql;
}

/** The running example: the Express app, the explorer API it mounts, and listen/close. */
export interface ExampleServer {
  app: Express;
  api: ExplorerApi;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

/** Turns an Express request into a Web-standard Request, keeping the full original URL (not the mount-relative one). */
function toRequest(req: ExpressRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`), {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req), duplex: 'half' } : {}),
  } as RequestInit);
}

/** Express middleware that answers every request it sees from the explorer API. */
export function explorerMiddleware(api: ExplorerApi) {
  return async (req: ExpressRequest, res: ExpressResponse): Promise<void> => {
    const response = await api.handle(toRequest(req), { clientAddress: req.ip ?? null });
    res.status(response.status);
    response.headers.forEach((value, name) => {
      res.setHeader(name, value);
    });
    res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
  };
}

/**
 * An existing Express 5 app with its own routes, which mounts the explorer under `/v1` and also calls the
 * typed handlers in process from a route of its own.
 * @example const { listen } = createExampleServer({ sql }); console.log(await listen(3002));
 */
export function createExampleServer(deps: ExampleAppDeps): ExampleServer {
  const api = createExplorerApi({ store: createSqlStore(deps.sql), routes: v1Routes });
  const handlers = createHandlers(api);
  const app = express();

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  // The app's own route, answered from the explorer without an HTTP round trip.
  app.get('/latest-block', async (_req, res) => {
    const { blocks, meta } = await handlers.listBlocks({ query: { limit: 1 } });
    const block = blocks[0];
    if (!block) {
      res.status(404).json({ error: 'nothing indexed yet' });
      return;
    }
    res.json({ height: block.height, hash: block.hash, time: block.time, indexedTip: meta.indexedTip });
  });

  app.use('/v1', explorerMiddleware(api));

  // Express 5 passes rejected promises here; an ApiError from the handlers keeps its status.
  app.use((err: unknown, _req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
    const status = err instanceof ApiError ? err.status : 500;
    if (status >= 500) console.error(err);
    res.status(status).json({ error: err instanceof ApiError ? err.message : 'internal error' });
  });

  let server: Server | null = null;
  return {
    app,
    api,
    listen(port = 3000, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        const s = app.listen(port, host, (err?: Error) => {
          if (err) return reject(err);
          server = s;
          resolve(`http://${host}:${(s.address() as AddressInfo).port}`);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        if (!server) return resolve();
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
  const example = createExampleServer({ sql });
  const url = await example.listen(Number(process.env.PORT ?? 3002));
  console.log(`listening on ${url} (try ${url}/latest-block and ${url}/v1/blocks?limit=3)`);
  const stop = async () => {
    await example.close();
    await sql.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
