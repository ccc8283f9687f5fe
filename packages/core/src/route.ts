import type { z } from 'zod';
import type { Meta, Pagination } from './envelope.js';
import type { EventFeed, EventLimits } from './events/feed.js';
import type { ChainNode } from './node.js';
import type { Store, TipInfo } from './store.js';
import type { WalletDeriver } from './wallet/deriver.js';

/** The API tags, in the order the document lists them. */
export const TAGS = [
  'API Access',
  'Status',
  'Blocks',
  'Transactions',
  'Addresses',
  'Miners',
  'Pools',
  'Analytics',
  'Market',
  'Search',
  'Mempool',
  'Labels',
  'Events',
] as const;

/** One of the API's tags. */
export type Tag = (typeof TAGS)[number];

/** Who is calling. */
export type Identity = { type: 'anonymous' } | { type: 'key'; keyId: string; name: string; tier: string };

/** The rate-limit state of the caller's bucket after this request. */
export interface RateLimitState {
  bucket: string;
  limit: number;
  remaining: number;
  /** Unix time (seconds) when the window resets. */
  reset: number;
  windowSeconds: number;
}

/** Settings of the API itself. */
export interface ApiConfig {
  /** The base address the OpenAPI document names as its server. */
  publicBaseUrl: string;
  /** Blocks this deep (confirmations ≥ depth) are treated as final: their responses are immutable. */
  finalityDepth: number;
  /** Entries of the in-process cache of immutable responses. */
  cacheEntries: number;
  /** How long the indexed tip read for `meta`, and live figures (status checks, market data), are reused, in milliseconds. */
  tipCacheMs: number;
  /**
   * How long a rendered chain-derived body is reused for the same URL at the same indexed tip, in milliseconds
   * (0 turns the response cache off). With the per-tip shares a body may be rendered from, it bounds how late
   * a change that does not move the tip (new pool or label definitions) shows: within twice this.
   */
  responseCacheMs: number;
  /** Approximate memory budget of the response cache, in bytes (0 turns it off). */
  responseCacheBytes: number;
  /** Value of Access-Control-Allow-Origin. */
  corsOrigin: string;
  /** Moment the API started (for uptime). */
  startedAt: number;
  /** Limits on live event subscriptions (`/v1/events`, the WebSocket). */
  events: EventLimits;
  /**
   * Addresses a wallet request (`/v1/wallet?key=…`) may derive per branch, without an API key and with one
   * (default 2,000 and 4,000): a deeper wallet is refused with a 400.
   */
  walletMaxDerived?: { anonymous: number; key: number };
}

/** What every handler can read. */
export interface RouteContext<P, Q> {
  params: P;
  query: Q;
  store: Store;
  node: ChainNode | null;
  config: ApiConfig;
  /** The meta being built for this response (tips already read). */
  meta: Meta;
  /** The indexed tip read for this response's meta (null when the database could not be read). */
  tip: TipInfo | null;
  identity: Identity;
  rateLimit: RateLimitState | null;
  /** The rate limiter in use, for its health in /v1/status. */
  rateLimiter: { health?(): { store: string; ok: boolean; error: string | null } } | null;
  requestId: string;
  /** Milliseconds since the epoch. */
  now: number;
  /** The OpenAPI document of this API. */
  openapi(): Record<string, unknown>;
  /** The request's headers. */
  headers: Headers;
  /** The client's address, as the host found it (null when unknown). */
  clientAddress: string | null;
  /** Ends the client's connection at once, where the host can (see HandleOptions). */
  cutConnection: (() => void) | null;
  /** The live event feed; null where this process serves none. */
  events: EventFeed | null;
  /** Where wallet addresses are derived (the host's choice: in this thread, or a pool of worker threads). */
  walletDeriver: WalletDeriver;
  /**
   * Loads data through the in-process cache: a value is kept once `isFinal` says it concerns blocks past the
   * finality depth (so it can no longer change), and until then shared like {@link memoAtTip}; a hit sets
   * meta.cached unless `quiet` (for lookups that only check the request, not answer it). Null results are kept
   * only per tip.
   */
  memo<T>(
    key: string,
    load: () => Promise<T>,
    isFinal: (value: NonNullable<T>) => boolean,
    opts?: { quiet?: boolean },
  ): Promise<T>;
  /**
   * Loads data that is a function of the indexed chain alone (analytics, rankings) at most once per indexed
   * tip and second: requests that see the same tip share one load, in flight or done; a hit sets meta.cached.
   */
  memoAtTip<T>(key: string, load: () => Promise<T>): Promise<T>;
  /**
   * Loads live figures (health checks, market data, the mempool) at most once per `tipCacheMs` (or `ttlMs`),
   * like the tip itself: the requests that ask meanwhile share one load, in flight or done; a hit sets
   * meta.cached. A failure, or a value `keep` refuses (bad news, re-checked by the next request), is shared only
   * while in flight.
   */
  live<T>(
    key: string,
    load: () => Promise<T>,
    opts?: { keep?: (value: T) => boolean; ttlMs?: number },
  ): Promise<T>;
}

/** A handler's answer: the members of the body besides ok/meta, and how it may be cached. */
export interface RouteResult<B> {
  body: B;
  pagination?: Pagination;
  /** The whole body can never change again (raw JSON, certificates…): HTTP caches may keep it forever. */
  immutable?: boolean;
  /** A stream route's body: sent as it is, with the route's content type, instead of the envelope. */
  stream?: ReadableStream<Uint8Array>;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : Record<string, never>;

/** One endpoint: path, schemas, and the handler. */
export interface RouteDefinition<
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  S extends z.ZodRawShape = z.ZodRawShape,
  I extends string = string,
  L extends boolean = boolean,
> {
  /** operationId. */
  id: I;
  /** OpenAPI-style path, e.g. `/v1/blocks/{heightOrHash}`. */
  path: string;
  tag: Tag;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  /** The body members besides ok/meta/pagination. */
  response: S;
  /** Adds `pagination` to the body (`true` for every list: defineList's routes say so in their type). */
  list?: L;
  /** Declares a 404 response. */
  notFound?: boolean;
  /** Declares a 501 response: the route's data may not be configured on a server (market data). */
  notConfigured?: boolean;
  /** The body is served as is, without the envelope (only the OpenAPI document itself). */
  raw?: boolean;
  /**
   * The success answer is a stream of this content type (`text/event-stream`), described by `description`;
   * refusals are still error envelopes.
   */
  stream?: { contentType: string; description: string };
  /**
   * The body is a function of the URL and the indexed chain (with its pool and label definitions) alone — not
   * of the caller's identity, the node, the market provider or the clock — so the API may serve the body it
   * rendered for the same URL at the same indexed tip, to a caller of the same kind (anonymous or with an API
   * key: their limits differ), within `responseCacheMs` (meta.cached true).
   */
  perTip?: boolean;
  /**
   * Rate-limit points the request costs, read from its query before it is routed or validated (default 1):
   * a request that asks for the work of many (the many-address lists) counts as more than one.
   */
  cost?(search: URLSearchParams): number;
  handler(ctx: RouteContext<Infer<P>, Infer<Q>>): Promise<RouteResult<z.output<z.ZodObject<S>>>>;
}

/** A route of any shape, as the route table holds them. */
export type AnyRoute = RouteDefinition<any, any, any, string>;

/**
 * Declares an endpoint, keeping the types of its schemas for the handler.
 * @example defineRoute({ id: 'getBlock', path: '/v1/blocks/{heightOrHash}', … })
 */
export function defineRoute<
  const I extends string,
  P extends z.ZodObject | undefined,
  Q extends z.ZodObject | undefined,
  S extends z.ZodRawShape,
>(def: RouteDefinition<P, Q, S, I>): RouteDefinition<P, Q, S, I> {
  return def;
}
