import { CliApiError, CliInterruptedError, CliNetworkError, CliTimeoutError } from './errors.js';

/**
 * The command line's own small HTTP layer. Commands only see the `ExplorerHttp` interface (a GET and a page
 * iterator), so switching to `@explorer/client` once it lands means one adapter here, not edits per command.
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

/** Options of createHttp. */
export interface HttpOptions {
  /** The server, e.g. `http://127.0.0.1:3000` (a path prefix is kept). */
  baseUrl: string;
  /** Sent as `X-API-Key`; never printed. */
  apiKey?: string | undefined;
  /** Bound on each request, in milliseconds. */
  timeoutMs: number;
  /** Aborts requests in flight (Ctrl-C). */
  signal?: AbortSignal;
  /** A fetch to use instead of the global one (tests). */
  fetch?: typeof fetch;
}

/** Builds a URL from the base, a path and a query. */
export function buildUrl(baseUrl: string, path: string, query: Query = {}): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url.toString();
}

function networkMessage(err: unknown): string {
  // fetch says only "fetch failed"; the cause names what happened (connect ECONNREFUSED …, bad port …).
  const cause = (err as { cause?: { message?: string; code?: string } })?.cause;
  return cause?.message || cause?.code || (err as Error)?.message || String(err);
}

function readRetryAfter(res: Response): number | null {
  const value = res.headers.get('retry-after');
  const n = value === null ? Number.NaN : Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * Builds the HTTP layer over fetch: `X-API-Key`, a timeout per request, the JSON envelope unwrapped, and
 * errors turned into CliApiError / CliNetworkError / CliTimeoutError.
 * @example const http = createHttp({ baseUrl: 'http://127.0.0.1:3000', timeoutMs: 10_000 }); await http.get('/v1/blocks', { limit: 5 })
 */
export function createHttp(opts: HttpOptions): ExplorerHttp {
  const doFetch = opts.fetch ?? fetch;

  async function get(path: string, query: Query = {}): Promise<ApiResult> {
    if (opts.signal?.aborted) throw new CliInterruptedError();
    const url = buildUrl(opts.baseUrl, path, query);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.apiKey) headers['x-api-key'] = opts.apiKey;
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, { headers, signal });
      text = await res.text();
    } catch (err) {
      if (opts.signal?.aborted) throw new CliInterruptedError();
      if (timeout.aborted) throw new CliTimeoutError(opts.timeoutMs);
      throw new CliNetworkError(`cannot reach ${opts.baseUrl}: ${networkMessage(err)}`, { cause: err });
    }
    let body: any;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = undefined;
    }
    const headerId = res.headers.get('x-request-id');
    if (!res.ok || body?.ok !== true) {
      const message =
        typeof body?.error === 'string'
          ? body.error
          : `HTTP ${res.status}${body === undefined ? `: ${text.slice(0, 200).trim()}` : ''}`;
      const status = res.ok ? 502 : res.status;
      throw new CliApiError(status, message, body?.meta?.requestId ?? headerId, readRetryAfter(res));
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
