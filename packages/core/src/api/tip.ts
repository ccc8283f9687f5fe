import { SharedCache } from '../cache/shared-cache.js';
import type { Store, TipInfo } from '../store.js';

/**
 * Reads the indexed tip for `meta` at most once per `ttlMs` (requests arriving while a read is in flight share
 * it); when a read fails, the last tip read stands (null before any), so an answer still says how far the
 * index got.
 */
export function createTipReader(
  store: Pick<Store, 'tip'>,
  ttlMs: number,
): (now: number) => Promise<TipInfo | null> {
  const tips = new SharedCache<TipInfo>({ maxEntries: 1, ttlMs });
  let last: TipInfo | null = null;
  return async (now) => {
    const kept = tips.peek('tip', now);
    if (kept) return kept.value;
    try {
      last = await tips.load('tip', now, () => store.tip()).value;
    } catch {
      // The database is down: the answer reports what was last known.
    }
    return last;
  };
}

/** The part of a cache key that names an indexed tip (both tips and the tip block's hash). */
export function tipKey(tip: TipInfo): string {
  return `${tip.height}:${tip.hash}:${tip.txHeight}`;
}
