import { SharedCache, type SharedLoadOptions } from '../cache/shared-cache.js';
import type { ApiConfig, RouteContext } from '../route.js';
import { tipKey } from './tip.js';

/** How long a figure read at one tip is shared: a change that does not move the tip shows within it. */
const AT_TIP_MS = 1_000;

/** The caches behind a route context's memo, memoAtTip and live (one set per API). */
export interface RouteCaches {
  /** Values that can no longer change (past the finality depth), kept until evicted. */
  finals: SharedCache<unknown>;
  /** Chain-wide figures, and records not final yet, keyed by the tip they were read at. */
  atTip: SharedCache<unknown>;
  /** Live figures (status checks, market data, the mempool) by a handful of fixed names. */
  lives: SharedCache<unknown>;
}

/** The caches of one API; CACHE_ENTRIES=0 turns the first two off, never the live figures (read by time). */
export function createRouteCaches(config: ApiConfig): RouteCaches {
  return {
    finals: new SharedCache({ maxEntries: Math.max(0, config.cacheEntries) }),
    atTip: new SharedCache({
      maxEntries: Math.max(0, Math.min(config.cacheEntries, 4_096)),
      ttlMs: AT_TIP_MS,
    }),
    lives: new SharedCache({ maxEntries: 64, ttlMs: config.tipCacheMs }),
  };
}

/** What a route context is made of besides its caches. */
export type RouteContextBase = Omit<RouteContext<unknown, unknown>, 'memo' | 'memoAtTip' | 'live'>;

/**
 * Completes `base` (the request's facts, a fresh object) into a handler's context: loads through the API's
 * caches, which mark meta.cached on a hit.
 */
export function routeContext(base: RouteContextBase, caches: RouteCaches): RouteContext<unknown, unknown> {
  const { meta, tip, now } = base;
  const shareAtTip = <T>(key: string, load: () => Promise<T>, quiet: boolean): Promise<T> => {
    if (!tip) return load();
    const { value, shared } = caches.atTip.load(`${key}@${tipKey(tip)}`, now, load);
    if (shared && !quiet) meta.cached = true;
    return value as Promise<T>;
  };
  return Object.assign(base, {
    async memo<T>(
      key: string,
      load: () => Promise<T>,
      isFinal: (value: NonNullable<T>) => boolean,
      opts?: { quiet?: boolean },
    ): Promise<T> {
      const kept = caches.finals.peek(key, now);
      if (kept !== undefined) {
        if (!opts?.quiet) meta.cached = true;
        return kept.value as T;
      }
      // Not final (yet): shared by the requests at this tip, like chain-wide figures.
      const value = await shareAtTip(`memo:${key}`, load, opts?.quiet === true);
      if (value !== null && value !== undefined && isFinal(value)) caches.finals.set(key, value, now);
      return value;
    },
    memoAtTip: <T>(key: string, load: () => Promise<T>) => shareAtTip(key, load, false),
    live<T>(key: string, load: () => Promise<T>, opts?: SharedLoadOptions<T>): Promise<T> {
      const { value, shared } = caches.lives.load(key, now, load, opts as SharedLoadOptions<unknown>);
      if (shared) meta.cached = true;
      return value as Promise<T>;
    },
  });
}
