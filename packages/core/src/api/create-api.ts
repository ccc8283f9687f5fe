import type { z } from 'zod';
import { countRequest, type RateLimiter } from '../access/rate-limit.js';
import {
  type AdapterContext,
  type AdapterRoute,
  isAdapterRoute,
  type Protocol,
  protocolOf,
} from '../adapters/adapter.js';
import type { BaseMeta, Meta } from '../envelope.js';
import {
  ApiError,
  BadRequestError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  toApiError,
} from '../errors.js';
import {
  DEFAULT_EVENT_LIMITS,
  type EventFeed,
  type EventSink,
  type EventSubscriptionHandle,
  type SubscribeRequest,
} from '../events/feed.js';
import type { Subscription } from '../events/subscription.js';
import { createRouter, type Router } from '../http/router.js';
import type { ChainNode } from '../node.js';
import { buildOpenApiDocument, type OpenApiDocument } from '../openapi.js';
import type { AnyRoute, ApiConfig, Identity, RouteResult } from '../route.js';
import { EVENTS_UNAVAILABLE, eventSubscribeRequest, eventsQuery } from '../routes/events.js';
import type { Store, TipInfo } from '../store.js';
import { deriveInThread, type WalletDeriver } from '../wallet/deriver.js';
import { type ApiAnswer, toResponse } from './answer.js';
import { corsHeaders, preflight } from './cors.js';
import { findRoute } from './find-route.js';
import { type Authenticator, type Caller, identify, requestIdOf } from './identify.js';
import { refusalOf } from './refusals.js';
import { createResponseCache, type RenderedBody, render, renderShared } from './render.js';
import {
  adapterAnswer,
  bodyAnswer,
  errorAnswer,
  protocolErrorAnswer,
  type Reply,
  rawAnswer,
  startMeta,
  streamAnswer,
  successMeta,
} from './respond.js';
import { createRouteCaches, routeContext } from './route-context.js';
import { type RequestTarget, requestTarget } from './target.js';
import { createTipReader, tipKey } from './tip.js';
import { validate } from './validate.js';

/** What the API is built from; only `main` (or an embedding app) constructs these. */
export interface ApiDeps {
  store: Store;
  routes: readonly AnyRoute[];
  /**
   * Paths of other protocols (Esplora's REST API, Blockbook's) answered over the same store and caches, with
   * their own bodies and errors; not in the OpenAPI document. Default none.
   */
  adapters?: readonly AdapterRoute[];
  node?: ChainNode | null;
  config?: Partial<ApiConfig>;
  authenticate?: Authenticator;
  rateLimiter?: RateLimiter;
  /** Milliseconds since the epoch (tests pin it). */
  clock?: () => number;
  /** The live event feed `/v1/events` serves; without one it answers 503. */
  events?: EventFeed | null;
  /**
   * Where wallet addresses are derived (`/v1/wallet?key=…`); default in the request's thread. The server passes a
   * pool of worker threads, so that a fresh key's derivation never blocks other requests.
   */
  walletDeriver?: WalletDeriver;
  /** Told about every unexpected error (5xx), with the request id, for logging. */
  onError?: (err: unknown, info: { requestId: string; route: string | null }) => void;
}

/** Per-request facts a host knows and a Request does not carry. */
export interface HandleOptions {
  /** The client's address (for the anonymous rate-limit bucket). */
  clientAddress?: string | null;
  /**
   * Ends the client's connection at once, where the host can (the Node server destroys the socket): how a
   * slow event-stream consumer is cut without its queued bytes being written first. Without it the stream is
   * errored, which hosts report as they report any failed body.
   */
  cutConnection?: () => void;
  /** Told, once the answer is ready, what the host cannot read from it: which route answered, from a cache or not (metrics). */
  answered?: (facts: AnswerFacts) => void;
}

/** What a host learns of one answer besides the answer itself (for its metrics). */
export interface AnswerFacts {
  /** The path template of the route the request named (`/v1/blocks/{heightOrHash}`); null when it named none. */
  route: string | null;
  /** The body came from a cache (`meta.cached`). */
  cached: boolean;
  /**
   * What the response cache said when it was asked for this body: `hit` (a body rendered for the same URL at
   * the same indexed tip, done or in flight) or `miss`; null when it was not asked (not a chain-derived body).
   */
  responseCache: 'hit' | 'miss' | null;
}

/** The explorer API as a Web-standard handler plus its typed pieces. */
export interface ExplorerApi {
  /** Answers any request: `(Request) => Promise<Response>`. Mount it under any server. */
  handle(request: Request, options?: HandleOptions): Promise<Response>;
  /** The same answer as data (status, header record, body text), for a host adapter that writes it itself. */
  answer(request: Request, options?: HandleOptions): Promise<ApiAnswer>;
  /** The configuration in force. */
  readonly config: ApiConfig;
  /** The route table. */
  readonly routes: readonly AnyRoute[];
  /** The protocol adapters' routes. */
  readonly adapters: readonly AdapterRoute[];
  /** The OpenAPI 3.1 document served at /v1/openapi.json. */
  openapi(): OpenApiDocument;
  /** What the response cache holds now (entries, and bytes as it counts them); null when it is off. */
  responseCacheSize(): { entries: number; bytes: number } | null;
  /**
   * Admits a live-event subscriber that is not an SSE request (the server's WebSocket): the request is
   * identified, counted and its query (`topics`, `addresses`, `lastEventId`) read as `/v1/events` reads it,
   * then `sink` is subscribed with the subscription `subscription` (given the parsed one) returns. Gives the
   * open subscription, or the refusal to answer with (400, 401, 429 — too many requests or subscriptions —,
   * 503 envelopes).
   * @example const admitted = await api.admitEvents(request, { clientAddress }, sink)
   */
  admitEvents(
    request: Request,
    options: HandleOptions,
    sink: EventSink,
    subscription?: (parsed: Subscription) => Subscription,
  ): Promise<EventAdmission>;
}

/** What {@link ExplorerApi.admitEvents} decided. */
export type EventAdmission =
  | {
      ok: true;
      request: SubscribeRequest & { maxAddresses: number };
      handle: EventSubscriptionHandle;
      feed: EventFeed;
      identity: Identity;
    }
  | { ok: false; answer: ApiAnswer };

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
  events: DEFAULT_EVENT_LIMITS,
};

/** A request body as text, refused with a 413 past `maxBytes` (counted as it arrives). */
async function readBody(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function targetOf(url: string): RequestTarget {
  try {
    return requestTarget(url);
  } catch {
    throw new BadRequestError('the request URL is malformed');
  }
}

/** One request on its way to its answer: when, at which tip, the meta it starts from and its reply. */
interface Exchange {
  now: number;
  tip: TipInfo | null;
  meta: BaseMeta;
  reply: Reply;
}

/**
 * The URL as sent (path and query) and the tip it is answered at name a chain-derived body, per kind of caller:
 * some answers depend on it (an API key allows longer address lists and deeper wallets), so a body rendered for
 * a key is never served to an anonymous caller, who would have been refused.
 */
function bodyKey(caller: Caller, target: RequestTarget, tip: TipInfo): string {
  return `${caller.identity.type === 'key' ? 'key:' : ''}${target.pathname}${target.search}@${tipKey(tip)}`;
}

/** The answer of a rendered body (a 404 rendered as such is thrown, to be answered as the error it is). */
function renderedAnswer(request: Request, reply: Reply, rendered: RenderedBody, meta: Meta): ApiAnswer {
  if (rendered.notFound !== undefined) throw new NotFoundError(rendered.notFound);
  return bodyAnswer(reply, request.headers.get('if-none-match'), rendered, meta);
}

/**
 * Builds the API over a store and a route table.
 * @example const api = createExplorerApi({ store, routes }); const res = await api.handle(new Request('http://x/v1/blocks'))
 */
export function createExplorerApi(deps: ApiDeps): ExplorerApi {
  const config: ApiConfig = { ...defaultApiConfig, startedAt: Date.now(), ...deps.config };
  const adapters = deps.adapters ?? [];
  const router: Router = createRouter([...deps.routes, ...adapters]);
  const protocols = [...new Set(adapters.map((a) => a.protocol))];
  const clock = deps.clock ?? Date.now;
  const readTip = createTipReader(deps.store, config.tipCacheMs);
  const caches = createRouteCaches(config);
  const responses = createResponseCache(config);
  const cors = corsHeaders(config.corsOrigin);
  let document: OpenApiDocument | null = null;
  const openapi = () => {
    document ??= buildOpenApiDocument(deps.routes, config.publicBaseUrl);
    return document;
  };
  /**
   * cors → identify → rate limit → a body rendered for this URL at this tip, if any → route → render (validate,
   * run), shared per tip → 304 or envelope. Every step that has its answer at hand gives it without awaiting,
   * so a cached body is served in one turn.
   */
  async function answer(request: Request, options: HandleOptions = {}): Promise<ApiAnswer> {
    if (!options.answered) return answerWith(request, options, null);
    const facts: AnswerFacts = { route: null, cached: false, responseCache: null };
    const result = await answerWith(request, options, facts);
    // Answers given before routing (a kept body, a refusal, a preflight) name their route here.
    facts.route ??= routeTemplate(request.url);
    options.answered(facts);
    return result;
  }

  /** The rate-limit points a request costs: what its route says (read from the query as sent), else 1. */
  function costOf(found: ReturnType<Router['match']>, target: RequestTarget): number {
    const cost = found?.route.cost;
    if (!cost) return 1;
    const points = cost(new URLSearchParams(target.search));
    return Number.isSafeInteger(points) && points >= 1 ? points : 1;
  }

  /** The path template of the route a URL names; null when none does. */
  function routeTemplate(url: string): string | null {
    try {
      return router.match(requestTarget(url).pathname)?.route.path ?? null;
    } catch {
      return null;
    }
  }

  /** What every answer starts from: the request's id, the tip it is answered at, the meta and the reply. */
  function begin(request: Request, now: number, tip: TipInfo | null, head: boolean): Exchange {
    const requestId = requestIdOf(request.headers);
    return {
      now,
      tip,
      meta: startMeta(requestId, tip, deps.node?.lastHeight() ?? null, now),
      reply: { requestId, cors, head, rateLimit: null },
    };
  }

  /**
   * Who is asking, counted against the rate limit (`points` of it) into the reply: past the limit, throws the
   * 429. A refused key is counted too and left for the caller to answer (`refused`). Without a rate limit and
   * with the identity at hand, it gives the caller without awaiting.
   */
  function admit(
    request: Request,
    options: HandleOptions,
    exchange: Exchange,
    points: number,
  ): Caller | Promise<Caller> {
    const identifying = identify(request.headers, deps.authenticate);
    const limiter = deps.rateLimiter;
    if (!limiter) return identifying;
    return (async () => {
      const caller = await identifying;
      const counted = await countRequest(
        limiter,
        caller.identity,
        options.clientAddress ?? null,
        exchange.now,
        points,
      );
      exchange.reply.rateLimit = counted.state;
      if (counted.limited) throw counted.limited;
      return caller;
    })();
  }

  /**
   * The error envelope of what went wrong (or the error as `protocol` answers it, for its paths); an unexpected
   * error (5xx) is told to onError first.
   */
  function failed(
    err: unknown,
    exchange: Exchange,
    route: string | null,
    protocol: Protocol | null = null,
  ): ApiAnswer {
    const error = toApiError(err);
    if (!(err instanceof ApiError) || error.status >= 500)
      deps.onError?.(err, { requestId: exchange.reply.requestId, route });
    if (protocol) return protocolErrorAnswer(exchange.reply, protocol, error);
    return errorAnswer(exchange.reply, error, exchange.meta);
  }

  /** The context a handler runs with: the request's facts over the API's caches. */
  function contextOf(
    params: unknown,
    query: unknown,
    meta: Meta,
    request: Request,
    options: HandleOptions,
    exchange: Exchange,
    caller: Caller,
  ) {
    return routeContext(
      {
        params,
        query,
        store: deps.store,
        node: deps.node ?? null,
        config,
        meta,
        tip: exchange.tip,
        identity: caller.identity,
        rateLimit: exchange.reply.rateLimit,
        rateLimiter: deps.rateLimiter ?? null,
        requestId: exchange.reply.requestId,
        now: exchange.now,
        openapi,
        headers: request.headers,
        clientAddress: options.clientAddress ?? null,
        cutConnection: options.cutConnection ?? null,
        events: deps.events ?? null,
        walletDeriver: deps.walletDeriver ?? deriveInThread,
      },
      caches,
    );
  }

  /** Validates the request against its route and runs the handler, noting in `ran` the meta it ran with. */
  function runRoute(
    matched: { route: AnyRoute; params: Record<string, string> },
    target: RequestTarget,
    request: Request,
    options: HandleOptions,
    exchange: Exchange,
    caller: Caller,
    ran: { meta?: Meta },
  ): Promise<RouteResult<unknown>> {
    const { route } = matched;
    const { params, query } = validate(route, matched.params, new URLSearchParams(target.search));
    ran.meta = successMeta(exchange.meta, false, exchange.tip);
    const ctx = contextOf(params, query, ran.meta, request, options, exchange, caller);
    return route.handler(ctx as never);
  }

  /** Runs an adapter route's handler on the raw path and query, with the request body at hand. */
  function runAdapter(
    matched: { route: AdapterRoute; params: Record<string, string> },
    target: RequestTarget,
    request: Request,
    options: HandleOptions,
    exchange: Exchange,
    caller: Caller,
  ) {
    const meta = successMeta(exchange.meta, false, exchange.tip);
    const base = contextOf(
      matched.params,
      new URLSearchParams(target.search),
      meta,
      request,
      options,
      exchange,
      caller,
    );
    const ctx: AdapterContext = Object.assign(base as AdapterContext, {
      body: (maxBytes: number) => readBody(request, maxBytes),
    });
    return matched.route.handler(ctx);
  }

  /** The answer, noting in `facts` (when given) what answer() reports of it. */
  async function answerWith(
    request: Request,
    options: HandleOptions,
    facts: AnswerFacts | null,
  ): Promise<ApiAnswer> {
    const now = clock();
    const method = request.method.toUpperCase();
    const readingTip = readTip(now);
    const tip = readingTip instanceof Promise ? await readingTip : readingTip;
    const exchange = begin(request, now, tip, method === 'HEAD');
    const { reply, meta } = exchange;
    if (method === 'OPTIONS') return preflight(reply.requestId, config.corsOrigin);
    let routeId: string | null = null;
    let protocol: Protocol | null = null;
    try {
      const target = targetOf(request.url);
      const found = router.match(target.pathname);
      if (protocols.length > 0)
        protocol = found
          ? isAdapterRoute(found.route)
            ? found.route.protocol
            : null
          : protocolOf(protocols, target.pathname);
      // Counted before routing, so every answer (404, 405 and a refused key's 401 included) counts.
      const admitting = admit(request, options, exchange, costOf(found, target));
      const caller = admitting instanceof Promise ? await admitting : admitting;
      const refused = refusalOf(request) ?? caller.refused;
      if (refused) throw refused;
      const key = tip ? bodyKey(caller, target, tip) : null;
      // A body kept under this key was rendered for this very URL: routed, validated and run already.
      const kept =
        key !== null && (method === 'GET' || method === 'HEAD') ? responses?.peek(key, now) : undefined;
      if (kept) {
        if (facts) {
          facts.cached = true;
          facts.responseCache = 'hit';
        }
        return renderedAnswer(request, reply, kept.value, successMeta(meta, true, tip));
      }
      if (!found && protocol)
        throw new NotFoundError(protocol.unknownPath(target.pathname.slice(protocol.prefix.length) || '/'));
      const matched = findRoute(router, target.pathname, method, found);
      const { route } = matched;
      routeId = route.id;
      if (facts) facts.route = route.path;
      if (isAdapterRoute(route))
        return adapterAnswer(
          reply,
          await runAdapter({ route, params: matched.params }, target, request, options, exchange, caller),
        );
      // The meta the handler ran with, when this request ran it: its memos mark it cached.
      const ran: { meta?: Meta } = {};
      const run = () =>
        runRoute({ route, params: matched.params }, target, request, options, exchange, caller, ran);
      if (route.raw) return rawAnswer(reply, (await run()).body);
      if (route.stream) return streamAnswer(reply, route.stream.contentType, (await run()).stream);
      const { rendered, shared } = await renderShared(responses, route.perTip ? key : null, now, () =>
        render(route, run),
      );
      // A body another request rendered was cached; one this request rendered was if what it read was.
      const success = ran.meta ?? successMeta(meta, shared, tip);
      if (shared) success.cached = true;
      if (facts) {
        facts.cached = success.cached === true;
        if (responses !== null && route.perTip && key !== null) facts.responseCache = shared ? 'hit' : 'miss';
      }
      return renderedAnswer(request, reply, rendered, success);
    } catch (err) {
      return failed(err, exchange, routeId, protocol);
    }
  }

  /** The same steps as answerWith's up to the route: then the query `/v1/events` reads, and the subscription. */
  async function admitEvents(
    request: Request,
    options: HandleOptions,
    sink: EventSink,
    subscription: (parsed: Subscription) => Subscription = (s) => s,
  ): Promise<EventAdmission> {
    const now = clock();
    const exchange = begin(request, now, await readTip(now), false);
    try {
      const target = targetOf(request.url);
      const caller = await admit(request, options, exchange, 1);
      if (caller.refused) throw caller.refused;
      if (!deps.events) throw new ServiceUnavailableError(EVENTS_UNAVAILABLE, 30);
      const { query } = validate({ query: eventsQuery }, {}, new URLSearchParams(target.search));
      const parsed = eventSubscribeRequest(
        query as z.output<typeof eventsQuery>,
        request.headers,
        caller.identity,
        options.clientAddress ?? null,
        config.events,
      );
      const subscribed = { ...parsed, subscription: subscription(parsed.subscription) };
      const handle = deps.events.subscribe(subscribed, sink);
      return { ok: true, request: subscribed, handle, feed: deps.events, identity: caller.identity };
    } catch (err) {
      return { ok: false, answer: failed(err, exchange, 'ws') };
    }
  }

  return {
    handle: async (request, options) => toResponse(await answer(request, options)),
    answer,
    admitEvents,
    config,
    routes: deps.routes,
    adapters,
    openapi,
    responseCacheSize: () => (responses ? { entries: responses.size, bytes: responses.held } : null),
  };
}
