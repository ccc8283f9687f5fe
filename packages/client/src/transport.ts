import ky, { isHTTPError, isTimeoutError } from 'ky';
import { abortableBody } from './abortable-body.js';
import { type ErrorBody, ExplorerApiError } from './errors/api-error.js';
import { ExplorerError } from './errors/explorer-error.js';
import { ExplorerNetworkError } from './errors/network-error.js';
import { ExplorerTimeoutError } from './errors/timeout-error.js';
import { ExplorerValidationError } from './errors/validation-error.js';
import type { OperationInfo } from './operations.js';
import { checkEnvelope, type ResponseValidator } from './validate.js';

/** How the client retries. GETs only (every operation is one); 400/401/404 are never retried. */
export interface RetryOptions {
  /** Retries after the first attempt (default 2); 0 turns retrying off. */
  limit?: number;
  /**
   * Longest `Retry-After` (429, 503) the client waits for, in milliseconds (default 30,000). A longer one is not
   * waited for: the error is thrown at once, with `retryAfter` set.
   */
  maxRetryAfterMs?: number;
  /** First backoff delay for network errors and 5xx without `Retry-After`, doubled each time (default 300). */
  backoffMs?: number;
  /** Longest backoff delay, in milliseconds (default 10,000). */
  backoffLimitMs?: number;
}

/** What `onRetry` is told before each retry, before the client waits. */
export interface RetryInfo {
  operationId: string;
  /** 1 for the first retry. */
  attempt: number;
  /** Why: the HTTP status, or the network error. */
  status: number | null;
  error: unknown;
  /** How long the client waits before this retry, in milliseconds: `Retry-After`, or the backoff delay. */
  delayMs: number;
  /** Whether the wait is the server's `Retry-After` (429, 503) rather than the client's backoff. */
  retryAfter: boolean;
}

/** Options of createExplorerClient. */
export interface ExplorerClientOptions {
  /** Where the API is, without `/v1`, e.g. `https://explorer.example` (a path prefix is kept). */
  baseUrl: string;
  /** An API key, sent as `X-API-Key`: a separate, higher rate-limit bucket. Keep it out of browser code. */
  apiKey?: string;
  /** A fetch implementation (default: the global one). */
  fetch?: (input: Request | URL | string, init?: RequestInit) => Promise<Response>;
  /** Retry settings, or just the limit. */
  retry?: RetryOptions | number;
  /** Milliseconds one attempt may take (default 10,000); false for none. */
  timeout?: number | false;
  /** Check the shape of every success body (`ok`, `meta`, pagination, member names). Default false. */
  validate?: boolean;
  /** A custom check of every success body (turns `validate` on), e.g. built from the OpenAPI document. */
  validator?: ResponseValidator;
  /** Headers sent with every request (e.g. `X-Request-Id`). */
  headers?: Record<string, string>;
  /** Called before each retry, before the wait, e.g. to log or to tell a user how long the wait is. */
  onRetry?: (info: RetryInfo) => void;
  /** Aborts every request and any wait between retries (e.g. on Ctrl-C); the client then throws an AbortError. */
  signal?: AbortSignal;
}

/** Sends one operation and returns its parsed body, or throws an ExplorerError. */
export type Send = (
  operationId: string,
  info: OperationInfo,
  params?: Record<string, unknown>,
  query?: Record<string, unknown>,
) => Promise<unknown>;

const retryAfterMs = (res: Response): number | null => {
  const v = res.headers.get('retry-after');
  if (v === null) return null;
  const s = Number(v);
  const ms = Number.isNaN(s) ? Date.parse(v) - Date.now() : s * 1000;
  return Number.isFinite(ms) ? Math.max(0, ms) : null;
};

/**
 * Builds the URL of an operation: path parameters encoded, undefined query values left out.
 * @example buildUrl('https://x.example', '/v1/blocks/{heightOrHash}', { heightOrHash: 5 }) // 'https://x.example/v1/blocks/5'
 */
export function buildUrl(
  baseUrl: string,
  path: string,
  params: Record<string, unknown> = {},
  query: Record<string, unknown> = {},
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(params[name] ?? '')),
  );
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) search.set(k, String(v));
  const qs = search.toString();
  return `${baseUrl.replace(/\/+$/, '')}${filled}${qs ? `?${qs}` : ''}`;
}

async function toApiError(operationId: string, res: Response): Promise<ExplorerApiError> {
  let body: ErrorBody | null = null;
  try {
    const parsed: unknown = JSON.parse(await res.text());
    if (typeof parsed === 'object' && parsed !== null) body = parsed as ErrorBody;
  } catch {
    // Not JSON (a proxy's HTML page…): the status still says what happened.
  }
  const after = retryAfterMs(res);
  return new ExplorerApiError({
    status: res.status,
    message: typeof body?.error === 'string' ? body.error : `HTTP ${res.status} ${res.statusText}`.trim(),
    requestId: body?.meta?.requestId ?? res.headers.get('x-request-id'),
    retryAfter: after === null ? null : Math.ceil(after / 1000),
    body,
    operationId,
  });
}

/** Statuses worth retrying; 429 and 503 wait for their `Retry-After`. A 501 (not configured) is not among them. */
const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];
const AFTER_STATUSES = [429, 503];

/** A client's retry settings with the defaults filled in. */
export type RetryPolicy = Required<RetryOptions>;

/**
 * The retry settings of a client's options, defaults filled in: what its operations and its event streams
 * share.
 * @example retryPolicyOf({ baseUrl, retry: 0 }).limit // 0
 */
export function retryPolicyOf(opts: Pick<ExplorerClientOptions, 'retry'>): RetryPolicy {
  const retry = typeof opts.retry === 'number' ? { limit: opts.retry } : (opts.retry ?? {});
  return {
    limit: retry.limit ?? 2,
    maxRetryAfterMs: retry.maxRetryAfterMs ?? 30_000,
    backoffMs: retry.backoffMs ?? 300,
    backoffLimitMs: retry.backoffLimitMs ?? 10_000,
  };
}

/**
 * Opens a long-lived GET whose body is read as it arrives (an event stream): no timeout and no retry (the
 * caller's loop decides), a non-2xx answer thrown as ExplorerApiError, no answer as ExplorerNetworkError.
 * Aborting `signal` (or the client's) ends the request and, however long after the answer, the body's reads.
 */
export type OpenStream = (
  operationId: string,
  path: string,
  query: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<Response>;

/** The HTTP layer of one client: its operations, its event streams, and the settings both share. */
export interface Connection {
  /** The client's `baseUrl`. */
  baseUrl: string;
  send: Send;
  openStream: OpenStream;
  retry: RetryPolicy;
  /** The client's `signal`, which also ends its streams. */
  signal: AbortSignal | undefined;
  onRetry: ExplorerClientOptions['onRetry'];
}

/**
 * The HTTP layer of the client, on ky: retries, timeouts, error translation and optional validation.
 * @example const send = createTransport({ baseUrl }); const body = await send('getStatus', operations.getStatus)
 */
export function createTransport(opts: ExplorerClientOptions): Send {
  return createConnection(opts).send;
}

/**
 * One ky instance (base headers, API key, fetch, signal) behind both a client's operations and its event
 * streams.
 * @example const { send, openStream } = createConnection({ baseUrl })
 */
export function createConnection(opts: ExplorerClientOptions): Connection {
  const policy = retryPolicyOf(opts);
  const maxRetryAfter = policy.maxRetryAfterMs;
  const backoff = policy.backoffMs;
  const backoffLimit = policy.backoffLimitMs;
  const delay = (attempt: number) => Math.min(backoffLimit, backoff * 2 ** (attempt - 1));
  const timeout = opts.timeout ?? 10_000;
  const validate = opts.validate === true || opts.validator !== undefined;
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.apiKey !== undefined) headers['x-api-key'] = opts.apiKey;
  const http = ky.create({
    headers,
    timeout,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    retry: {
      limit: policy.limit,
      methods: ['get'],
      statusCodes: RETRY_STATUSES,
      afterStatusCodes: AFTER_STATUSES,
      maxRetryAfter,
      backoffLimit,
      delay,
    },
  });

  /**
   * Decides a retry the way ky's engine then performs it, so that `onRetry` can say how long the wait is
   * before it starts: the `Retry-After` of a 429 or 503, or the backoff delay. ky has already checked the
   * method and the retry limit when it asks.
   */
  const plan = (error: Error, attempt: number): { delayMs: number; retryAfter: boolean } | null => {
    if (isTimeoutError(error) || error.name === 'AbortError' || opts.signal?.aborted) return null;
    if (!isHTTPError(error)) return { delayMs: delay(attempt), retryAfter: false };
    const status = error.response.status;
    if (!RETRY_STATUSES.includes(status)) return null;
    const after = AFTER_STATUSES.includes(status) ? retryAfterMs(error.response) : null;
    if (after === null) return { delayMs: delay(attempt), retryAfter: false };
    // A wait longer than the caller allows is not cut short (that would only earn another 429): give up.
    return after > maxRetryAfter ? null : { delayMs: after, retryAfter: true };
  };

  const send: Send = async (operationId, info, params, query) => {
    const url = buildUrl(opts.baseUrl, info.path, params, query);
    let res: Response;
    let text: string;
    try {
      res = await http.get(url, {
        retry: {
          shouldRetry: ({ error, retryCount }) => {
            const next = plan(error, retryCount);
            if (next === null) return false;
            opts.onRetry?.({
              operationId,
              attempt: retryCount,
              status: isHTTPError(error) ? error.response.status : null,
              error,
              ...next,
            });
            // undefined lets ky wait the Retry-After it reads from the same header (and no reset-header
            // fallback ever applies: without Retry-After the answer is true, which is the backoff above).
            return next.retryAfter ? undefined : true;
          },
        },
      });
      text = await res.text();
    } catch (err) {
      if (isHTTPError(err)) throw await toApiError(operationId, err.response);
      if (isTimeoutError(err)) throw new ExplorerTimeoutError(url, timeout || 0, err);
      if (err instanceof ExplorerError || (err as Error)?.name === 'AbortError') throw err;
      // Whatever the runtime made of a cancelled request (a reset socket, a custom abort reason), it was an abort.
      if (opts.signal?.aborted) throw new DOMException('This operation was aborted', 'AbortError');
      throw new ExplorerNetworkError(url, err);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ExplorerValidationError(operationId, 'the body is not JSON', text);
    }
    if (validate) {
      const problem =
        checkEnvelope(info, body) ?? opts.validator?.({ operationId, status: res.status, body });
      if (problem) throw new ExplorerValidationError(operationId, problem, body);
    }
    return body;
  };

  const openStream: OpenStream = async (operationId, path, query, signal) => {
    const url = buildUrl(opts.baseUrl, path, {}, query);
    const both = opts.signal ? AbortSignal.any([opts.signal, signal]) : signal;
    try {
      const res = await http.get(url, {
        timeout: false,
        retry: 0,
        signal: both,
        headers: { accept: 'text/event-stream' },
      });
      return abortableBody(res, both);
    } catch (err) {
      if (isHTTPError(err)) throw await toApiError(operationId, err.response);
      if (both.aborted || (err as Error)?.name === 'AbortError')
        throw new DOMException('This operation was aborted', 'AbortError');
      throw new ExplorerNetworkError(url, err);
    }
  };

  return {
    baseUrl: opts.baseUrl,
    send,
    openStream,
    retry: policy,
    signal: opts.signal,
    onRetry: opts.onRetry,
  };
}
