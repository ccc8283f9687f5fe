import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { errorEnvelope, type Meta, type Pagination } from './envelope.js';
import {
  ApiError,
  BadRequestError,
  MethodNotAllowedError,
  NotFoundError,
  RateLimitedError,
  toApiError,
  UnauthorizedError,
} from './errors.js';
import { textResponse } from './http/body.js';
import { Lru } from './http/lru.js';
import { type RenderedBody, ResponseCache } from './http/response-cache.js';
import { createRouter } from './http/router.js';
import type { ChainNode } from './node.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.js';
import type { AnyRoute, ApiConfig, Identity, RateLimitState, RouteContext, RouteResult } from './route.js';
import type { Store, TipInfo } from './store.js';

/** Verifies a presented API key; throws UnauthorizedError for unknown, revoked or malformed keys. */
export type Authenticator = (key: string) => Promise<Identity>;

/** Takes one request from the caller's bucket. */
export interface RateLimiter {
  consume(identity: Identity, clientAddress: string | null): Promise<RateLimitState & { allowed: boolean }>;
  /** Whether the shared store answers (for /v1/status); absent → not reported. */
  health?(): { store: string; ok: boolean; error: string | null };
}

/** What the API is built from; only `main` (or an embedding app) constructs these. */
export interface ApiDeps {
  store: Store;
  routes: readonly AnyRoute[];
  node?: ChainNode | null;
  config?: Partial<ApiConfig>;
  authenticate?: Authenticator;
  rateLimiter?: RateLimiter;
  /** Milliseconds since the epoch (tests pin it). */
  clock?: () => number;
  /** Told about every unexpected error (5xx), with the request id, for logging. */
  onError?: (err: unknown, info: { requestId: string; route: string | null }) => void;
}

/** Per-request facts a host knows and a Request does not carry. */
export interface HandleOptions {
  /** The client's address (for the anonymous rate-limit bucket). */
  clientAddress?: string | null;
}

/** The explorer API as a Web-standard handler plus its typed pieces. */
export interface ExplorerApi {
  /** Answers any request: `(Request) => Promise<Response>`. Mount it under any server. */
  handle(request: Request, options?: HandleOptions): Promise<Response>;
  /** The configuration in force. */
  readonly config: ApiConfig;
  /** The route table. */
  readonly routes: readonly AnyRoute[];
  /** The OpenAPI 3.1 document served at /v1/openapi.json. */
  openapi(): OpenApiDocument;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Requests their host refused before handing them over, with the error to answer them with. */
const refusals = new WeakMap<Request, ApiError>();

/**
 * Marks a request its host refused before the API could read it (a URL too long, headers too large, bytes that
 * are not HTTP): `handle` answers it with `error` once it has counted it against the caller's bucket, so the
 * refusal carries the same `meta` (indexed tip, node height) and rate-limit headers as every other answer.
 * Returns the request.
 * @example await api.handle(refuseRequest(request, new ApiError(414, 'the request URL is too long')))
 */
export function refuseRequest(request: Request, error: ApiError): Request {
  refusals.set(request, error);
  return request;
}
const EXPOSED_HEADERS =
  'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag';

/** Default configuration; every value can be overridden. */
export const defaultApiConfig: ApiConfig = {
  publicBaseUrl: 'http://127.0.0.1:3000',
  finalityDepth: 100,
  cacheEntries: 10_000,
  tipCacheMs: 250,
  responseCacheMs: 1_000,
  responseCacheBytes: 32 * 1024 * 1024,
  corsOrigin: '*',
  startedAt: Date.now(),
};

function formatIssue(issue: z.core.$ZodIssue, where: string): string {
  const name = issue.path.map(String).join('.');
  if (name && issue.message.startsWith(name)) return issue.message;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${where} ${name} is required`;
  return name ? `${name}: ${issue.message}` : issue.message;
}

function parseParams(schema: z.ZodObject | undefined, raw: Record<string, string>, where: string): unknown {
  if (!schema) return {};
  const r = schema.safeParse(raw);
  if (!r.success) throw new BadRequestError(formatIssue(r.error.issues[0]!, where));
  return r.data;
}

function parseQuery(schema: z.ZodObject | undefined, search: URLSearchParams): unknown {
  const allowed = schema ? Object.keys(schema.shape) : [];
  const raw: Record<string, string> = {};
  for (const [k, v] of search) {
    if (!allowed.includes(k)) {
      throw new BadRequestError(
        allowed.length
          ? `unknown query parameter '${k.slice(0, 40)}'; allowed: ${allowed.join(', ')}`
          : `this endpoint takes no query parameters (got '${k.slice(0, 40)}')`,
      );
    }
    if (k in raw) throw new BadRequestError(`query parameter '${k}' is given more than once`);
    raw[k] = v;
  }
  return parseParams(schema, raw, 'query parameter');
}

function presentedKey(headers: Headers): string | null {
  const header = headers.get('x-api-key');
  const auth = headers.get('authorization');
  let bearer: string | null = null;
  if (auth !== null) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) throw new UnauthorizedError('Authorization header must be "Bearer <API key>"');
    bearer = m[1]!;
  }
  if (header !== null && bearer !== null && header.trim() !== bearer) {
    throw new BadRequestError('two different API keys were sent (X-API-Key and Authorization); send one');
  }
  const key = (header ?? bearer)?.trim() ?? null;
  if (key === '') throw new UnauthorizedError('the API key is empty');
  return key;
}

/** A load shared by the requests that ask for its key while it is fresh. */
interface Shared {
  at: number;
  settled: boolean;
  value: Promise<unknown>;
}

/**
 * The fresh entry under `key` (in flight, or settled within `ttlMs` of its start either way: a request's clock
 * is read when it starts), or a new one running `load`. A failure, or a value `keep` refuses, is dropped once
 * settled, unless a newer entry took its place. `hit` says whether the value was shared.
 */
function share<T>(
  entries: {
    get(key: string): Shared | undefined;
    set(key: string, entry: Shared): unknown;
    delete(key: string): unknown;
  },
  key: string,
  now: number,
  ttlMs: number,
  load: () => Promise<T>,
  keep?: (value: T) => boolean,
): { value: Promise<T>; hit: boolean } {
  const found = entries.get(key);
  if (found && (!found.settled || Math.abs(now - found.at) < ttlMs))
    return { value: found.value as Promise<T>, hit: true };
  const value = load();
  const entry: Shared = { at: now, settled: false, value };
  entries.set(key, entry);
  const drop = () => {
    if (entries.get(key) === entry) entries.delete(key);
  };
  value.then((v) => {
    entry.settled = true;
    if (keep && !keep(v)) drop();
  }, drop);
  return { value, hit: false };
}

/**
 * Builds the API over a store and a route table.
 * @example const api = createExplorerApi({ store, routes }); const res = await api.handle(new Request('http://x/v1/blocks'))
 */
export function createExplorerApi(deps: ApiDeps): ExplorerApi {
  const config: ApiConfig = { ...defaultApiConfig, startedAt: Date.now(), ...deps.config };
  const router = createRouter(deps.routes);
  const clock = deps.clock ?? Date.now;
  const cache = new Lru<unknown>(config.cacheEntries);
  // Chain-wide figures, and records not final yet, keyed by the tip they were read at; kept for a second at
  // most, so a change that does not move the tip (new pool definitions re-attributing blocks) shows within it.
  const atTip = new Lru<Shared>(Math.min(config.cacheEntries, 4_096));
  const AT_TIP_MS = 1_000;
  // CACHE_ENTRIES=0 turns every in-process cache off, this one included.
  const responses = new ResponseCache(
    config.cacheEntries > 0 ? config.responseCacheBytes : 0,
    config.responseCacheMs,
  );
  // Live figures by key (a handful of fixed names).
  const lives = new Map<string, Shared>();
  let document: OpenApiDocument | null = null;
  const openapi = () => {
    document ??= buildOpenApiDocument(deps.routes, config.publicBaseUrl);
    return document;
  };
  let tipCache: { at: number; tip: TipInfo } | null = null;
  let tipPending: Promise<TipInfo> | null = null;

  async function readTip(now: number): Promise<TipInfo | null> {
    if (tipCache && now - tipCache.at < config.tipCacheMs) return tipCache.tip;
    // One read serves every request that arrives while it is in flight.
    tipPending ??= deps.store.tip().finally(() => {
      tipPending = null;
    });
    try {
      const tip = await tipPending;
      tipCache = { at: now, tip };
      return tip;
    } catch {
      return tipCache?.tip ?? null;
    }
  }

  const JSON_TYPE = 'application/json; charset=utf-8';

  /** Headers of every answer; lower-case names, as a plain record (see http/body.ts). */
  function baseHeaders(
    requestId: string,
    rl: RateLimitState | null,
    extra: Record<string, string>,
    contentType: string | null = JSON_TYPE,
  ): Record<string, string> {
    const h: Record<string, string> = {};
    if (contentType !== null) h['content-type'] = contentType;
    h['x-request-id'] = requestId;
    h['access-control-allow-origin'] = config.corsOrigin;
    h['access-control-expose-headers'] = EXPOSED_HEADERS;
    h.vary = 'Origin, X-API-Key, Authorization';
    if (rl) {
      h['x-ratelimit-limit'] = String(rl.limit);
      h['x-ratelimit-remaining'] = String(rl.remaining);
      h['x-ratelimit-reset'] = String(rl.reset);
    }
    for (const k in extra) h[k.toLowerCase()] = extra[k]!;
    return h;
  }

  async function handle(request: Request, options: HandleOptions = {}): Promise<Response> {
    const now = clock();
    const incoming = request.headers.get('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const method = request.method.toUpperCase();
    const tip = await readTip(now);
    const meta: Meta = {
      requestId,
      indexedTip: tip?.height ?? -1,
      // Until the node first answers, the indexed tip: the node had at least the blocks the index holds.
      nodeHeight: deps.node?.lastHeight() ?? tip?.height ?? -1,
      servedAt: new Date(now).toISOString(),
    };
    let rateLimit: RateLimitState | null = null;
    let routeId: string | null = null;
    const isHead = method === 'HEAD';

    try {
      if (method === 'OPTIONS') {
        const headers = baseHeaders(
          requestId,
          null,
          {
            'access-control-allow-methods': 'GET, HEAD, OPTIONS',
            'access-control-allow-headers':
              'X-API-Key, Authorization, Content-Type, If-None-Match, X-Request-Id',
            'access-control-max-age': '86400',
            allow: 'GET, HEAD, OPTIONS',
          },
          null,
        );
        return textResponse(null, { status: 204, headers });
      }
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        throw new BadRequestError('the request URL is malformed');
      }
      // Identity and rate limit come before routing, so every answer (404, 405, 401 included) counts against a
      // bucket and carries its headers. A request whose key is refused counts as anonymous.
      let identity: Identity = { type: 'anonymous' };
      let refused: unknown = null;
      try {
        const key = presentedKey(request.headers);
        if (key !== null) {
          if (!deps.authenticate) throw new UnauthorizedError('unknown API key');
          identity = await deps.authenticate(key);
        }
      } catch (err) {
        refused = err;
      }
      if (deps.rateLimiter) {
        const r = await deps.rateLimiter.consume(identity, options.clientAddress ?? null);
        rateLimit = r;
        if (!r.allowed) throw new RateLimitedError(Math.max(1, r.reset - Math.floor(now / 1000)));
      }
      const refusal = refusals.get(request);
      if (refusal) throw refusal;
      if (refused) throw refused;

      const found = router.match(url.pathname);
      if (!found) throw new NotFoundError(`no such endpoint: ${url.pathname.slice(0, 200)}`);
      const { route } = found;
      routeId = route.id;
      if (method !== 'GET' && !isHead) throw new MethodNotAllowedError(method, ['GET', 'HEAD', 'OPTIONS']);

      meta.cached = false;
      meta.indexedTipHash = tip?.hash ?? null;
      meta.txIndexedTip = tip?.txHeight ?? -1;

      const run = async () => {
        const params = parseParams(route.params, found.params, 'path parameter');
        const query = parseQuery(route.query, url.searchParams);
        const shareAtTip = <T>(key: string, load: () => Promise<T>, quiet: boolean): Promise<T> => {
          if (!tip || config.cacheEntries <= 0) return load();
          const k = `${key}@${tip.height}:${tip.hash}:${tip.txHeight}`;
          const { value, hit } = share(atTip, k, now, AT_TIP_MS, load);
          if (hit && !quiet) meta.cached = true;
          // Entries of past seconds and tips hold memory for nothing: drop them from the cold end.
          if (!hit) atTip.dropWhile((e) => e.settled && Math.abs(now - e.at) >= AT_TIP_MS);
          return value;
        };
        const ctx: RouteContext<unknown, unknown> = {
          params,
          query,
          store: deps.store,
          node: deps.node ?? null,
          config,
          meta,
          tip,
          identity,
          rateLimit,
          rateLimiter: deps.rateLimiter ?? null,
          requestId,
          now,
          openapi,
          async memo<T>(
            key: string,
            load: () => Promise<T>,
            isFinal: (value: NonNullable<T>) => boolean,
            opts?: { quiet?: boolean },
          ): Promise<T> {
            const hit = cache.get(key);
            if (hit !== undefined) {
              if (!opts?.quiet) meta.cached = true;
              return hit as T;
            }
            // Not final (yet): shared by the requests at this tip, like chain-wide figures.
            const value = await shareAtTip(`memo:${key}`, load, opts?.quiet === true);
            if (value !== null && value !== undefined && isFinal(value)) cache.set(key, value);
            return value;
          },
          memoAtTip<T>(key: string, load: () => Promise<T>): Promise<T> {
            return shareAtTip(key, load, false);
          },
          live<T>(key: string, load: () => Promise<T>, keep?: (value: T) => boolean): Promise<T> {
            const { value, hit } = share(lives, key, now, config.tipCacheMs, load, keep);
            if (hit) meta.cached = true;
            return value;
          },
        };
        return route.handler(ctx as never);
      };
      if (route.raw) {
        const result = await run();
        const headers = baseHeaders(requestId, rateLimit, { 'cache-control': 'public, max-age=300' });
        return textResponse(isHead ? null : JSON.stringify(result.body), { status: 200, headers });
      }
      const render = async (): Promise<RenderedBody> => {
        let result: RouteResult<unknown>;
        try {
          result = await run();
        } catch (err) {
          // What is absent at this tip is as much a function of the chain as what is present.
          if (err instanceof NotFoundError)
            return { text: '', etag: '', immutable: false, notFound: err.message };
          throw err;
        }
        const data: Record<string, unknown> = { ...(result.body as object) };
        if (route.list) data.pagination = result.pagination as Pagination;
        // The body without meta is what the ETag covers.
        const text = JSON.stringify(data).slice(1, -1);
        const etag = `W/"${createHash('sha1').update(text).digest('base64url')}"`;
        return { text, etag, immutable: result.immutable === true };
      };
      let rendered: RenderedBody;
      if (route.perTip && tip && responses.enabled) {
        // The URL as sent (path and query) and the tip it is answered at name the body.
        const key = `${url.pathname}${url.search}@${tip.height}:${tip.hash}:${tip.txHeight}`;
        const shared = responses.get(key, now);
        if (shared) {
          rendered = await shared;
          meta.cached = true;
        } else {
          rendered = await responses.load(key, now, render);
        }
      } else {
        rendered = await render();
      }
      if (rendered.notFound !== undefined) throw new NotFoundError(rendered.notFound);
      const validators = {
        etag: rendered.etag,
        'cache-control': rendered.immutable
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=0, must-revalidate',
      };
      const inm = request.headers.get('if-none-match');
      if (inm?.split(',').some((t) => t.trim() === rendered.etag)) {
        return textResponse(null, {
          status: 304,
          headers: baseHeaders(requestId, rateLimit, validators, null),
        });
      }
      const headers = baseHeaders(requestId, rateLimit, validators);
      const { text } = rendered;
      const body = `{"ok":true,${text ? `${text},` : ''}"meta":${JSON.stringify(meta)}}`;
      return textResponse(isHead ? null : body, { status: 200, headers });
    } catch (err) {
      const apiErr = toApiError(err);
      if (!(err instanceof ApiError) || apiErr.status >= 500)
        deps.onError?.(err, { requestId, route: routeId });
      const headers = baseHeaders(requestId, rateLimit, { ...apiErr.headers, 'cache-control': 'no-store' });
      const body = JSON.stringify(errorEnvelope(apiErr.message, meta));
      return textResponse(isHead ? null : body, { status: apiErr.status, headers });
    }
  }

  return { handle, config, routes: deps.routes, openapi };
}
