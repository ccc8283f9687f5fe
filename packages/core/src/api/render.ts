import { SharedCache } from '../cache/shared-cache.js';
import type { Pagination } from '../envelope.js';
import { NotFoundError } from '../errors.js';
import type { AnyRoute, ApiConfig, RouteResult } from '../route.js';
import { etagOf } from './conditional.js';

/** A rendered success body: the members besides meta, its ETag, and whether it can never change. */
export interface RenderedBody {
  /** The body members without braces and without meta (`"block":{…}`), as the ETag covers them. */
  text: string;
  etag: string;
  immutable: boolean;
  /** Set instead of a body when the answer is a 404 with this message. */
  notFound?: string;
}

/** Per-entry bookkeeping besides the text (key, map slot, promise), in bytes. */
const OVERHEAD = 256;

/**
 * The response cache: rendered bodies of chain-derived (`perTip`) routes keyed by URL and indexed tip, shared
 * for `responseCacheMs` within `responseCacheBytes`; null when either is 0, or CACHE_ENTRIES=0 turns every
 * in-process cache off.
 */
export function createResponseCache(config: ApiConfig): SharedCache<RenderedBody> | null {
  if (config.cacheEntries <= 0 || config.responseCacheMs <= 0 || config.responseCacheBytes <= 0) return null;
  return new SharedCache<RenderedBody>({
    maxBytes: config.responseCacheBytes,
    sizeOf: (body, key) => body.text.length + key.length + body.etag.length + OVERHEAD,
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
    if (err instanceof NotFoundError) return { text: '', etag: '', immutable: false, notFound: err.message };
    throw err;
  }
  const data: Record<string, unknown> = { ...(result.body as object) };
  if (route.list) data.pagination = result.pagination as Pagination;
  // The body without meta is what the ETag covers.
  const text = JSON.stringify(data).slice(1, -1);
  return { text, etag: etagOf(text), immutable: result.immutable === true };
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
