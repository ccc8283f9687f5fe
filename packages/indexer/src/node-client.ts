import { deadline } from '@explorer/core';
import ky, { type Input } from 'ky';
import { Agent, fetch as undiciFetch } from 'undici';
import { networkProblem } from './network-error.js';
import { NodeCookieError, readCookie } from './node-cookie.js';

/** A JSON-RPC error the node answered with (the node is up; the request was refused). */
export class NodeRpcError extends Error {
  override readonly name = 'NodeRpcError';
  constructor(
    readonly method: string,
    readonly code: number,
    /** The node's own message, as it wrote it. */
    readonly rpcMessage: string,
  ) {
    super(`${method}: ${rpcMessage} (code ${code})`);
  }
}

/** The node could not be reached, timed out, or answered something that is not JSON-RPC. */
export class NodeUnavailableError extends Error {
  override readonly name = 'NodeUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Refused credentials: the one failure another attempt cannot mend. */
class CredentialsRefusedError extends NodeUnavailableError {}

/** Options of the JSON-RPC client. */
export interface NodeClientOptions {
  /** http(s)://user:password@host:port/ — credentials are taken out of the URL and sent as basic auth. */
  url: string;
  /**
   * The node's cookie file (`__cookie__:<hex>`, Bitcoin Core's and litecoind's default authentication), in place
   * of credentials in the URL. It is read at the first call and again each time the node answers 401: the node
   * writes a new cookie whenever it starts, and the call is sent once more with it.
   */
  cookieFile?: string;
  /** Milliseconds one HTTP call may take (default 30 s). */
  timeoutMs?: number;
  /** Attempts for a call that failed for lack of the node (default 4); RPC errors are never retried. */
  attempts?: number;
  /** First backoff in milliseconds, doubled each attempt (default 250). */
  backoffMs?: number;
  /**
   * For an https:// URL: the certificate (PEM) to trust, e.g. pearld's `rpc.cert`, which is self-signed. Without
   * it the system's certificate authorities decide.
   */
  tlsCa?: string | Buffer;
  /** fetch to use (tests inject failures through it). */
  fetch?: typeof fetch;
}

/** One call of a batch. */
export interface RpcCall {
  method: string;
  params?: unknown[];
}

/** A Bitcoin-Core-compatible JSON-RPC client. */
export interface NodeClient {
  /** Calls one method. @example const height = await node.call<number>('getblockcount') */
  call<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Calls several methods in one HTTP request; results in order. Throws the first RPC error. */
  batch<T = unknown>(calls: RpcCall[]): Promise<T[]>;
  /** The URL without credentials, for logs and status. */
  readonly displayUrl: string;
  /**
   * How to open another client to the same node (in another thread: the sync's block readers); absent for a
   * client whose transport was given (`fetch`), which only this one can use.
   */
  readonly connection?: NodeConnection;
}

/** A node client's options that another thread can be given (everything but an injected `fetch`). */
export type NodeConnection = Omit<NodeClientOptions, 'fetch'>;

interface RpcResponse {
  result?: unknown;
  error?: { code: number; message: string } | null;
  id?: unknown;
}

/** Where a client's basic-auth credentials come from. */
interface Credentials {
  /** The Authorization header to send, or null for none. */
  header(label: string): string | null;
  /** Reads the credentials again after a 401, and gives the header to send now. */
  renew(label: string): string | null;
  /** What to say when the node refuses them. */
  refused(status: number): string;
}

const basic = (userPassword: string) => `Basic ${Buffer.from(userPassword).toString('base64')}`;

function fixedCredentials(userPassword: string | null): Credentials {
  const header = userPassword === null ? null : basic(userPassword);
  return {
    header: () => header,
    renew: () => header,
    refused: (status) =>
      status === 403
        ? "the node forbids requests from this address (HTTP 403): allow it with the node's rpcallowip"
        : `the node refused the credentials (HTTP ${status}): check the user and password in NODE_RPC_URL, or use NODE_RPC_COOKIE`,
  };
}

function cookieCredentials(file: string, endpoint: string): Credentials {
  let header: string | null = null;
  // A cookie missing or unreadable now is a node that is stopping or starting: the call may pass later.
  const load = (label: string) => {
    try {
      return basic(readCookie(file));
    } catch (err) {
      if (err instanceof NodeCookieError) throw new NodeUnavailableError(`${label}: ${err.message}`);
      throw err;
    }
  };
  return {
    header(label) {
      header ??= load(label);
      return header;
    },
    renew(label) {
      header = load(label);
      return header;
    },
    refused: (status) =>
      `the node refused the cookie in ${file} (HTTP ${status}): is it the cookie of the node at ${endpoint}?`,
  };
}

/**
 * Creates a JSON-RPC client for a Bitcoin-Core-style node.
 * @example const node = createNodeClient({ url: 'http://user:pass@127.0.0.1:18443/' })
 */
export function createNodeClient(opts: NodeClientOptions): NodeClient {
  const parsed = new URL(opts.url);
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  if ((user || password) && opts.cookieFile) {
    throw new NodeCookieError('cannot be used with credentials in the URL: give one or the other');
  }
  parsed.username = '';
  parsed.password = '';
  const endpoint = parsed.toString();
  const credentials = opts.cookieFile
    ? cookieCredentials(opts.cookieFile, endpoint)
    : fixedCredentials(user || password ? `${user}:${password}` : null);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const backoffMs = opts.backoffMs ?? 250;
  // undici (the client behind Node's fetch) with our own agent, so a node's self-signed certificate can be trusted.
  const dispatcher = new Agent(opts.tlsCa ? { connect: { ca: opts.tlsCa } } : {});
  const send =
    opts.fetch ??
    ((url: string, init: RequestInit) =>
      undiciFetch(url, {
        ...(init as Parameters<typeof undiciFetch>[1]),
        dispatcher,
      }) as unknown as Promise<Response>);
  const http = ky.create({
    // Each attempt keeps its own deadline (see `post`).
    timeout: false,
    // The body decides whether the node answered, not the status (see `post`).
    throwHttpErrors: false,
    retry: {
      limit: Math.max(1, opts.attempts ?? 4) - 1,
      // JSON-RPC is all POST, and every call we make reads, so asking again is safe.
      methods: ['post'],
      delay: (retry) => backoffMs * 2 ** (retry - 1),
      // No connection, no answer in time, an answer that is not JSON: all may pass. Refused credentials will not.
      shouldRetry: ({ error }) => !(error instanceof CredentialsRefusedError),
    },
  });
  let nextId = 1;

  async function post(body: unknown, label: string): Promise<unknown> {
    let answer: unknown;
    // One attempt; ky's retry repeats it. It does two things ky's own request cannot: its deadline covers the
    // body too (ky's `timeout` ends when the headers arrive, and a node that stalls mid-answer must time out like
    // one that never answers), and it reads the body inside the retry, because the body says whether the node
    // answered: a JSON-RPC error is HTTP 500 with JSON (final), a busy node's or a proxy's page is not JSON.
    const attempt = async (input: Input): Promise<Response> => {
      const request = input as Request; // ky hands its fetch the Request it built
      const requestBody = await request.text();
      const due = deadline(timeoutMs, request.signal);
      try {
        const sendWith = (authorization: string | null) => {
          const headers = new Headers(request.headers);
          if (authorization) headers.set('authorization', authorization);
          return send(request.url, {
            method: request.method,
            headers,
            body: requestBody,
            signal: due.signal,
          });
        };
        const sent = credentials.header(label);
        let res = await sendWith(sent);
        if (res.status === 401) {
          // A node that restarted has a new cookie: read it, and ask once more if it is not the one just refused
          // (calls refused together each compare with their own, so every one of them asks again).
          const fresh = credentials.renew(label);
          if (fresh !== sent) {
            await res.body?.cancel();
            res = await sendWith(fresh);
          }
        }
        if (res.status === 401 || res.status === 403) {
          throw new CredentialsRefusedError(`${label}: ${credentials.refused(res.status)}`);
        }
        const text = await res.text();
        try {
          answer = JSON.parse(text);
        } catch {
          throw new NodeUnavailableError(
            res.status === 404
              ? `${label}: nothing answers JSON-RPC at ${endpoint} (HTTP 404): check the URL's path (a node takes JSON-RPC at /, a wallet's calls at /wallet/<name>)`
              : `${label}: the node answered HTTP ${res.status} with a body that is not JSON`,
          );
        }
        return res;
      } finally {
        due.clear();
      }
    };
    try {
      await http.post(endpoint, { json: body, fetch: attempt });
    } catch (err) {
      if (err instanceof NodeUnavailableError) throw err;
      if ((err as Error)?.name === 'TimeoutError')
        throw new NodeUnavailableError(
          `${label}: node unreachable at ${endpoint} (timed out after ${timeoutMs} ms)`,
          { cause: err },
        );
      // `fetch failed` names no cause: the cause beneath it says which of refused, blocked, DNS or TLS it was.
      const problem = networkProblem(err, parsed);
      throw new NodeUnavailableError(
        problem
          ? `${label}: node unreachable at ${endpoint}: ${problem}`
          : `${label}: node unreachable at ${endpoint} (${String((err as Error)?.message ?? err)})`,
        { cause: err },
      );
    }
    return answer;
  }

  function unwrap(method: string, r: RpcResponse | undefined): unknown {
    if (!r || typeof r !== 'object') throw new NodeUnavailableError(`${method}: malformed JSON-RPC response`);
    if (r.error) throw new NodeRpcError(method, Number(r.error.code), String(r.error.message));
    if (!('result' in r)) throw new NodeUnavailableError(`${method}: JSON-RPC response without result`);
    return r.result;
  }

  const connection: NodeConnection | undefined = opts.fetch
    ? undefined
    : {
        url: opts.url,
        cookieFile: opts.cookieFile,
        timeoutMs: opts.timeoutMs,
        attempts: opts.attempts,
        backoffMs: opts.backoffMs,
        tlsCa: opts.tlsCa,
      };
  return {
    displayUrl: endpoint,
    connection,
    async call<T>(method: string, params: unknown[] = []) {
      const r = (await post({ jsonrpc: '1.0', id: nextId++, method, params }, method)) as RpcResponse;
      return unwrap(method, r) as T;
    },
    async batch<T>(calls: RpcCall[]) {
      if (calls.length === 0) return [];
      const first = nextId;
      nextId += calls.length;
      const body = calls.map((c, i) => ({
        jsonrpc: '1.0',
        id: first + i,
        method: c.method,
        params: c.params ?? [],
      }));
      const out = await post(body, `batch(${calls[0]!.method}×${calls.length})`);
      if (!Array.isArray(out)) throw new NodeUnavailableError('batch: the node did not answer with an array');
      const byId = new Map<unknown, RpcResponse>(out.map((r: RpcResponse) => [r?.id, r]));
      return calls.map((c, i) => unwrap(c.method, byId.get(first + i))) as T[];
    },
  };
}
