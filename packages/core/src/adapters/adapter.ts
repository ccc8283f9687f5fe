import type { ApiError } from '../errors.js';
import type { RouteContext } from '../route.js';

/**
 * A protocol another explorer backend speaks (Esplora's REST API, Blockbook's): the paths under its prefix are
 * answered with its own bodies and its own errors, through the same steps as `/v1` (identity, rate limit,
 * caches, store).
 */
export interface Protocol {
  /** Its name, for logs and metrics (`esplora`). */
  name: string;
  /** The path prefix its routes are mounted under (`/api`); a path under it that no route has is its 404. */
  prefix: string;
  /** The message of the 404 for a path under the prefix that no route has (`rest` is the path after it). */
  unknownPath(rest: string): string;
  /** An error as this protocol answers it: its body and content type (the status is the error's). */
  error(error: ApiError): { contentType: string; body: string };
}

/** An adapter route's answer: the body as sent, its type, and how long HTTP caches may keep it. */
export interface AdapterBody {
  /** Default 200. */
  status?: number;
  contentType: string;
  body: string | Uint8Array<ArrayBuffer>;
  /** The Cache-Control header (default `no-cache`: revalidate each time). */
  cacheControl?: string;
}

/** What an adapter route's handler reads: the route context with the raw path and query, and the body. */
export interface AdapterContext extends RouteContext<Record<string, string>, URLSearchParams> {
  /** The request body as text (POST routes); refused with a 413 past `maxBytes`. */
  body(maxBytes: number): Promise<string>;
}

/**
 * One path of a protocol adapter. Unlike a `/v1` route it has no schemas and no envelope: the handler reads its
 * parameters as sent, answers with the protocol's body, and throws ApiErrors, which the protocol renders. Not
 * part of the `/v1` OpenAPI document.
 */
export interface AdapterRoute {
  /** Unique among routes (`esplora.getTx`). */
  id: string;
  /** The path, with `{param}` segments, prefix included (`/api/tx/{txid}`). */
  path: string;
  /** GET (with HEAD, the default) or POST. */
  method?: 'GET' | 'POST';
  protocol: Protocol;
  /** Rate-limit points the request costs (default 1), read from its query as sent. */
  cost?(search: URLSearchParams): number;
  handler(ctx: AdapterContext): Promise<AdapterBody>;
}

/**
 * Declares an adapter route.
 * @example defineAdapterRoute({ id: 'esplora.tipHeight', path: '/api/blocks/tip/height', protocol, handler })
 */
export function defineAdapterRoute(def: AdapterRoute): AdapterRoute {
  return def;
}

/** Whether a route of the table is an adapter's. */
export function isAdapterRoute(route: { path: string }): route is AdapterRoute {
  return 'protocol' in route;
}

/** The protocol whose prefix holds `pathname` (the longest prefix wins); null for none. */
export function protocolOf(protocols: readonly Protocol[], pathname: string): Protocol | null {
  let best: Protocol | null = null;
  for (const p of protocols) {
    if (pathname === p.prefix || pathname.startsWith(`${p.prefix}/`)) {
      if (!best || p.prefix.length > best.prefix.length) best = p;
    }
  }
  return best;
}
