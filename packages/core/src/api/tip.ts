import { SharedCache } from '../cache/shared-cache.js';
import type { Store, TipInfo } from '../store.js';

/**
 * Reads the indexed tip for `meta` at most once per `ttlMs` (requests arriving while a read is in flight share
 * it); when a read fails, the last tip read stands (null before any), so an answer still says how far the
 * index got. A tip read within the ttl is returned as is, without a promise to wait on.
 */
export function createTipReader(
  store: Pick<Store, 'tip'>,
  ttlMs: number,
): (now: number) => TipInfo | null | Promise<TipInfo | null> {
  const tips = new SharedCache<TipInfo>({ maxEntries: 1, ttlMs });
  let last: TipInfo | null = null;
  const read = async (now: number) => {
    try {
      last = await tips.load('tip', now, () => store.tip()).value;
    } catch {
      // The database is down: the answer reports what was last known.
    }
    return last;
  };
  return (now) => tips.peek('tip', now)?.value ?? read(now);
}

const keys = new WeakMap<TipInfo, string>();

/** The part of a cache key that names an indexed tip (both tips and the tip block's hash). */
export function tipKey(tip: TipInfo): string {
  let key = keys.get(tip);
  if (key === undefined) {
    key = `${tip.height}:${tip.hash}:${tip.txHeight}`;
    keys.set(tip, key);
  }
  return key;
}
