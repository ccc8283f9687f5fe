import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { DialectName } from './chain/dialect.js';
import { RpcError } from './rpc-error.js';

/** Where and how to serve JSON-RPC. */
export interface ListenOptions {
  port?: number;
  host?: string;
  user?: string;
  password?: string;
  /** Serve HTTPS with this key and certificate (PEM), as pearld does by default; plain HTTP without. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Whose HTTP conventions to follow; set by the devnet from its own dialect. */
  dialect?: DialectName;
}

/** A running RPC server. */
export interface RpcServerHandle {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Largest accepted request body; Core's own limit is similar in spirit (it bounds request size). */
const MAX_BODY = 4 * 1024 * 1024;

type Call = (method: string, params: unknown) => Promise<unknown>;

interface Reply {
  status: number;
  body: unknown;
}

// Bitcoin Core maps error codes to HTTP statuses; pearld (like btcd) answers every JSON-RPC reply with 200.
function errorStatus(code: number, dialect: DialectName): number {
  if (dialect === 'pearl') return 200;
  if (code === -32601) return 404;
  if (code === -32600) return 400;
  return 500;
}

async function handleOne(call: Call, req: unknown, dialect: DialectName): Promise<Reply> {
  const id = req !== null && typeof req === 'object' && 'id' in req ? (req as { id: unknown }).id : null;
  try {
    if (req === null || typeof req !== 'object' || Array.isArray(req))
      throw new RpcError(-32600, 'Invalid Request object');
    const { method, params } = req as { method?: unknown; params?: unknown };
    if (typeof method !== 'string') throw new RpcError(-32600, 'Method must be a string');
    const result = await call(method, params ?? []);
    return { status: 200, body: { result: result ?? null, error: null, id } };
  } catch (err) {
    const e =
      err instanceof RpcError ? err : new RpcError(-1, err instanceof Error ? err.message : String(err));
    return {
      status: errorStatus(e.code, dialect),
      body: { result: null, error: { code: e.code, message: e.message }, id },
    };
  }
}

function authorized(req: IncomingMessage, user?: string, password?: string): boolean {
  if (user === undefined && password === undefined) return true;
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return false;
  const given = Buffer.from(Buffer.from(header.slice(6), 'base64').toString('utf8'));
  const expected = Buffer.from(`${user ?? ''}:${password ?? ''}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Serves JSON-RPC 1.0 over HTTP(S) POST / (batches, basic auth), with the HTTP conventions of the dialect:
 * Core's statuses per error code, or pearld's 200 for every reply and its 401 body.
 */
export function startRpcServer(call: Call, opts: ListenOptions = {}): Promise<RpcServerHandle> {
  const dialect = opts.dialect ?? 'bitcoin';
  const listener: RequestListener = (req, res) => {
    if (!authorized(req, opts.user, opts.password)) {
      const body = dialect === 'pearl' ? '401 Unauthorized.\n' : '';
      const realm = dialect === 'pearl' ? 'pearld RPC' : 'jsonrpc';
      res.writeHead(401, {
        'www-authenticate': `Basic realm="${realm}"`,
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-length': 0 });
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let aborted = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY && !aborted) {
        aborted = true;
        res.writeHead(413, { connection: 'close', 'content-length': 0 });
        res.end();
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (aborted) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        send(res, errorStatus(-32700, dialect), {
          result: null,
          error: { code: -32700, message: 'Parse error' },
          id: null,
        });
        return;
      }
      const done = Array.isArray(parsed)
        ? Promise.all(parsed.map((r) => handleOne(call, r, dialect))).then((rs) => ({
            status: 200,
            body: rs.map((r) => r.body),
          }))
        : handleOne(call, parsed, dialect);
      done.then(
        (r) => send(res, r.status, r.body),
        (err) =>
          send(res, errorStatus(-1, dialect), {
            result: null,
            error: { code: -1, message: String(err) },
            id: null,
          }),
      );
    });
  };
  const server = opts.tls
    ? createTlsServer({ key: opts.tls.key, cert: opts.tls.cert }, listener)
    : createServer(listener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const host = opts.host ?? '127.0.0.1';
    server.listen(opts.port ?? 0, host, () => {
      const port = (server.address() as AddressInfo).port;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `${opts.tls ? 'https' : 'http'}://${urlHost}:${port}/`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
