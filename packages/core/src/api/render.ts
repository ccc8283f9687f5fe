import { SharedCache } from '../cache/shared-cache.js';
import type { Pagination } from '../envelope.js';
import { NotFoundError } from '../errors.js';
import type { AnyRoute, ApiConfig, RouteResult } from '../route.js';
import { etagOf } from './conditional.js';

/**
 * A rendered success body, kept as the bytes it is sent as: the envelope up to `meta`, the ETag of its members,
 * and whether it can never change. An answer is `head`, the request's meta and `}`; nothing of the body is
 * serialised or hashed again for it.
 */
export interface RenderedBody {
  /** The success envelope up to meta's value: `{"ok":true,"block":{…},"meta":`. */
  head: string;
  /** The ETag of the body members without meta (`"block":{…}`), which is what stays the same between answers. */
  etag: string;
  /** Bytes of `head` in UTF-8 (for Content-Length without measuring the body again). */
  headBytes: number;
  immutable: boolean;
  /** Set instead of a body when the answer is a 404 with this message. */
  notFound?: string;
}

/** Per-entry bookkeeping besides the text (key, map slot, promise), in bytes. */
const OVERHEAD = 256;

/**
 * The response cache: rendered bodies of chain-derived (`perTip`) routes keyed by URL, indexed tip and kind of
 * caller (anonymous or with an API key, whose limits are wider), shared
 * for `responseCacheMs` within `responseCacheBytes`; null when either is 0, or CACHE_ENTRIES=0 turns every
 * in-process cache off.
 */
export function createResponseCache(config: ApiConfig): SharedCache<RenderedBody> | null {
  if (config.cacheEntries <= 0 || config.responseCacheMs <= 0 || config.responseCacheBytes <= 0) return null;
  return new SharedCache<RenderedBody>({
    maxBytes: config.responseCacheBytes,
    sizeOf: (body, key) => body.headBytes + key.length + body.etag.length + OVERHEAD,
    ttlMs: config.responseCacheMs,
  });
}

/**
 * Runs a route and renders its result as body members and their ETag. A 404 is rendered too: what is absent at
 * a tip is as much a function of the chain as what is present, so it is shared per tip like a body.
 */
export async function render(
  route: AnyRoute,
  run: () => Promise<RouteResult<unknown>>,
): Promise<RenderedBody> {
  let result: RouteResult<unknown>;
  try {
    result = await run();
  } catch (err) {
    if (err instanceof NotFoundError)
      return { head: '', headBytes: 0, etag: '', immutable: false, notFound: err.message };
    throw err;
  }
  const data: Record<string, unknown> = { ...(result.body as object) };
  if (route.list) data.pagination = result.pagination as Pagination;
  return renderedBody(JSON.stringify(data).slice(1, -1), result.immutable === true);
}

/**
 * A body rendered from its members without braces and without meta (`"block":{…}`): the ETag covers those
 * members, the head wraps them in the success envelope.
 * @example renderedBody('"a":1', false).head // '{"ok":true,"a":1,"meta":'
 */
export function renderedBody(members: string, immutable: boolean): RenderedBody {
  const head = `{"ok":true,${members ? `${members},` : ''}"meta":`;
  return { head, headBytes: Buffer.byteLength(head), etag: etagOf(members), immutable };
}

/**
 * A body rendered by `produce`, through the response cache when `key` names a chain-derived body (a cached body
 * was validated when it was rendered); `shared` says another request rendered it.
 */
export async function renderShared(
  responses: SharedCache<RenderedBody> | null,
  key: string | null,
  now: number,
  produce: () => Promise<RenderedBody>,
): Promise<{ rendered: RenderedBody; shared: boolean }> {
  if (responses === null || key === null) return { rendered: await produce(), shared: false };
  const kept = responses.peek(key, now);
  if (kept) return { rendered: kept.value, shared: true };
  const { value, shared } = responses.load(key, now, produce);
  return { rendered: await value, shared };
}
