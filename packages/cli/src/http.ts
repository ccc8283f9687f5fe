import {
  buildUrl as buildClientUrl,
  createTransport,
  ExplorerApiError,
  ExplorerNetworkError,
  ExplorerTimeoutError,
  ExplorerValidationError,
} from '@explorer/client';
import { CliApiError, CliInterruptedError, CliNetworkError, CliTimeoutError } from './errors.js';

/**
 * The command line's HTTP layer: an adapter from the SDK's transport to what the commands use. Commands only
 * see the `ExplorerHttp` interface (a GET and a page iterator).
 */

/** Query parameters; undefined values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** The pagination member of list answers. */
export interface Pagination {
  limit: number;
  cursor: string | null;
  nextCursor?: string;
  hasMore: boolean;
  offset?: number;
}

/** The body of a success without `ok` and `meta`: what `--json` prints. */
export type ApiData = Record<string, unknown> & { pagination?: Pagination };

/** A success: the data, and the meta the server sent beside it. */
export interface ApiResult {
  data: ApiData;
  meta: Record<string, unknown> | null;
}

/** One page of a list: the page's data and its items (already cut to --max). */
export interface Page {
  data: ApiData;
  items: unknown[];
}

/** Options of a page walk. */
export interface PagesOptions {
  /** The member holding the list (`blocks`, `txs` …). */
  listKey: string;
  /** Rows per request (the API's `limit`, 1–100). */
  pageSize?: string | number;
  /** Stop after this many rows in all. */
  max?: number;
}

/** What the commands use to reach the API. */
export interface ExplorerHttp {
  /** GETs one path. */
  get(path: string, query?: Query): Promise<ApiResult>;
  /** GETs a list page by page, following `pagination.nextCursor`, until the end, --max or an interrupt. */
  pages(path: string, query: Query, opts: PagesOptions): AsyncGenerator<Page, void, void>;
}

/** A wait the HTTP layer is about to make before asking again. */
export interface RetryNotice {
  /** The status that asked for the wait (429, 503). */
  status: number;
  /** Milliseconds, from the server's `Retry-After`. */
  waitMs: number;
}

/** Options of createHttp. */
export interface HttpOptions {
  /** The server, e.g. `http://127.0.0.1:3000` (a path prefix is kept). */
  baseUrl: string;
  /** Sent as `X-API-Key`; never printed. */
  apiKey?: string | undefined;
  /** Bound on each request, in milliseconds. */
  timeoutMs: number;
  /**
   * Longest `Retry-After` (429, or 503 with `Retry-After`) waited for before asking again, in milliseconds
   * (default 60,000). A longer one fails at once; 0 never waits.
   */
  maxWaitMs?: number;
  /** Told before each `Retry-After` wait, e.g. to say so on stderr. */
  onWait?: (notice: RetryNotice) => void;
  /** Aborts requests in flight and waits (Ctrl-C). */
  signal?: AbortSignal;
  /** A fetch to use instead of the global one (tests). */
  fetch?: typeof fetch;
}

/** The longest `Retry-After` waited for when `maxWaitMs` does not say. */
export const DEFAULT_MAX_WAIT_MS = 60_000;

/** Builds a URL from the base, a path and a query (the SDK's builder: undefined values left out). */
export function buildUrl(baseUrl: string, path: string, query: Query = {}): string {
  return buildClientUrl(baseUrl, path, {}, query);
}

function networkMessage(err: unknown): string {
  // fetch says only "fetch failed"; the cause names what happened (connect ECONNREFUSED …, bad port …).
  const cause = (err as { cause?: { message?: string; code?: string } })?.cause;
  return cause?.message || cause?.code || (err as Error)?.message || String(err);
}

/**
 * Builds the HTTP layer over the SDK's transport (`@explorer/client`): `X-API-Key`, a timeout per request,
 * the SDK's retries (a 429 or 503 waits its `Retry-After`, up to `maxWaitMs`; network errors and other 5xx
 * back off briefly, at most twice), the JSON envelope unwrapped, and the SDK's errors turned into
 * CliApiError / CliNetworkError / CliTimeoutError / CliInterruptedError.
 * @example const http = createHttp({ baseUrl: 'http://127.0.0.1:3000', timeoutMs: 10_000 }); await http.get('/v1/blocks', { limit: 5 })
 */
export function createHttp(opts: HttpOptions): ExplorerHttp {
  const maxWaitMs = opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const send = createTransport({
    baseUrl: opts.baseUrl,
    ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    timeout: opts.timeoutMs,
    retry: { maxRetryAfterMs: maxWaitMs },
    onRetry: (info) => {
      if (info.retryAfter && info.status !== null)
        opts.onWait?.({ status: info.status, waitMs: info.delayMs });
    },
  });

  function translate(err: unknown): unknown {
    if (opts.signal?.aborted) return new CliInterruptedError();
    if (err instanceof ExplorerApiError) {
      const tooLong =
        err.retryAfter !== null &&
        (err.status === 429 || err.status === 503) &&
        err.retryAfter * 1000 > maxWaitMs;
      const message = tooLong
        ? `${err.message} (Retry-After ${err.retryAfter} s is longer than --max-wait ${Math.floor(maxWaitMs / 1000)} s)`
        : err.message;
      return new CliApiError(err.status, message, err.requestId, err.retryAfter);
    }
    if (err instanceof ExplorerTimeoutError) return new CliTimeoutError(opts.timeoutMs);
    if (err instanceof ExplorerNetworkError) {
      return new CliNetworkError(`cannot reach ${opts.baseUrl}: ${networkMessage(err.cause)}`, {
        cause: err,
      });
    }
    if (err instanceof ExplorerValidationError) {
      return new CliApiError(
        502,
        `the server did not answer JSON: ${String(err.body).slice(0, 200).trim()}`,
        null,
      );
    }
    return err;
  }

  async function get(path: string, query: Query = {}): Promise<ApiResult> {
    if (opts.signal?.aborted) throw new CliInterruptedError();
    let body: any;
    try {
      body = await send(
        `GET ${path}`,
        { path: path.replace(/[{}]/g, encodeURIComponent), members: [] },
        {},
        query,
      );
    } catch (err) {
      throw translate(err);
    }
    if (body?.ok !== true) {
      const message = typeof body?.error === 'string' ? body.error : 'the answer is not a success envelope';
      throw new CliApiError(502, message, body?.meta?.requestId ?? null);
    }
    const { ok: _ok, meta, ...data } = body as Record<string, unknown>;
    return { data: data as ApiData, meta: (meta as Record<string, unknown>) ?? null };
  }

  async function* pages(path: string, query: Query, o: PagesOptions): AsyncGenerator<Page, void, void> {
    const pageSize = o.pageSize === undefined ? 100 : Number(o.pageSize);
    let cursor = query.cursor;
    let count = 0;
    for (;;) {
      const left = o.max === undefined ? Number.POSITIVE_INFINITY : o.max - count;
      // A bad --limit is passed through untouched so the server's 400 explains it.
      const limit = Number.isInteger(pageSize) ? Math.min(pageSize, left) : o.pageSize;
      const { data } = await get(path, { ...query, limit, cursor });
      const list = data[o.listKey];
      let items = Array.isArray(list) ? list : [];
      if (items.length > left) items = items.slice(0, left);
      count += items.length;
      yield { data, items };
      const next = data.pagination?.nextCursor;
      if (!next || count >= (o.max ?? Number.POSITIVE_INFINITY) || opts.signal?.aborted) return;
      cursor = next;
    }
  }

  return { get, pages };
}
