import { LRUCache } from 'lru-cache';

/** How a {@link SharedCache} is bounded (by entries or by bytes) and how long what it keeps stays fresh. */
export type SharedCacheOptions<V> = (
  | {
      /** Most settled values kept (least recently used out first); 0 keeps nothing and shares nothing. */
      maxEntries: number;
    }
  | {
      /**
       * Approximate memory budget of the settled values, in bytes, as `sizeOf` counts them (least recently
       * used out first); a value larger than an eighth of it is handed to its callers but not kept. 0 keeps
       * nothing and shares nothing.
       */
      maxBytes: number;
      /** The approximate size of a value in bytes. */
      sizeOf: (value: V, key: string) => number;
    }
) & {
  /** How long a settled value is shared after its load started, in milliseconds (default: until evicted). */
  ttlMs?: number;
};

/** What one load is asked with besides its key. */
export interface SharedLoadOptions<V> {
  /** Whether to keep a value once it settled; a refused one (bad news) is shared only while in flight. */
  keep?: (value: V) => boolean;
  /** This entry's freshness instead of the cache's `ttlMs`. */
  ttlMs?: number;
}

/** A value as a caller receives it: the promise, and whether another caller's load produced it. */
export interface Shared<V> {
  value: Promise<V>;
  shared: boolean;
}

/** A settled value, boxed so that null and undefined are values too. */
export interface Kept<V> {
  readonly value: V;
}

interface Entry<V> {
  /** When the load that made it started (the clock of the request that asked). */
  at: number;
  ttlMs: number;
  kept: Kept<V>;
  /** The promise its callers were handed (settled). */
  promise: Promise<V>;
}

/**
 * The one "load once, share while fresh" primitive of the API: concurrent loads of a key share one promise
 * (in flight); a settled value is shared until `ttlMs` after its load started, judged on the asking
 * request's clock (a request that started before the value was made still shares it; a clock that jumped by
 * more than the ttl ends it); failures are never kept. Freshness by indexed tip comes from putting the tip in
 * the key. Settled values live in an `lru-cache` bounded by entries or by bytes; expired ones are dropped
 * from its cold end whenever a new load starts, so entries of past seconds and tips do not hold memory.
 * @example const tips = new SharedCache<TipInfo>({ maxEntries: 1, ttlMs: 250 }); await tips.load('tip', now, () => store.tip()).value
 */
export class SharedCache<V> {
  /** Whether anything is ever kept or shared (false when a bound is 0). */
  readonly enabled: boolean;
  private readonly ttlMs: number;
  private readonly sizeOf: (value: V, key: string) => number;
  private readonly inFlight = new Map<string, Promise<V>>();
  private readonly settled: LRUCache<string, Entry<V>> | null;

  constructor(opts: SharedCacheOptions<V>) {
    const bound = 'maxBytes' in opts ? opts.maxBytes : opts.maxEntries;
    this.ttlMs = opts.ttlMs ?? Number.POSITIVE_INFINITY;
    this.enabled = bound > 0;
    // An entry counts 1 towards an entry bound. Both bounds are lru-cache's maxSize, not its max, which would
    // allocate room for max entries up front (CACHE_ENTRIES may be large and is mostly never filled).
    this.sizeOf = 'maxBytes' in opts ? opts.sizeOf : () => 1;
    this.settled = !this.enabled
      ? null
      : new LRUCache<string, Entry<V>>({
          maxSize: bound,
          ...('maxBytes' in opts ? { maxEntrySize: Math.max(1, Math.floor(bound / 8)) } : {}),
        });
  }

  /** Settled values held. */
  get size(): number {
    return this.settled?.size ?? 0;
  }

  /** What the settled values count towards the bound: bytes, or entries. */
  get held(): number {
    return this.settled?.calculatedSize ?? 0;
  }

  /** The settled value under `key` while fresh at `now` (marked recently used), without waiting on a promise. */
  peek(key: string, now: number): Kept<V> | undefined {
    return this.fresh(key, now)?.kept;
  }

  /** The value under `key`, in flight or fresh at `now` (marked recently used); undefined otherwise. */
  get(key: string, now: number): Promise<V> | undefined {
    return this.inFlight.get(key) ?? this.fresh(key, now)?.promise;
  }

  /**
   * The value under `key` while in flight or fresh, else a new load by `loader` that every caller asking
   * meanwhile shares; its value is kept once settled unless it failed or `keep` refuses it.
   */
  load(key: string, now: number, loader: () => Promise<V>, opts: SharedLoadOptions<V> = {}): Shared<V> {
    if (!this.enabled) return { value: loader(), shared: false };
    const found = this.get(key, now);
    if (found) return { value: found, shared: true };
    this.dropExpired(now);
    const value = loader();
    this.inFlight.set(key, value);
    const ttlMs = opts.ttlMs ?? this.ttlMs;
    value.then(
      (v) => {
        if (this.inFlight.get(key) !== value) return;
        this.inFlight.delete(key);
        if (!opts.keep || opts.keep(v))
          this.keep(key, { at: now, ttlMs, kept: { value: v }, promise: value });
      },
      () => {
        if (this.inFlight.get(key) === value) this.inFlight.delete(key);
      },
    );
    return { value, shared: false };
  }

  /** Keeps a value known already (shared like a settled load started at `now`). */
  set(key: string, value: V, now: number): void {
    if (this.enabled)
      this.keep(key, { at: now, ttlMs: this.ttlMs, kept: { value }, promise: Promise.resolve(value) });
  }

  private keep(key: string, entry: Entry<V>): void {
    // lru-cache wants a positive integer size; one byte stands for anything smaller.
    this.settled!.set(key, entry, { size: Math.max(1, Math.ceil(this.sizeOf(entry.kept.value, key))) });
  }

  /** The settled entry under `key` while fresh at `now`, marked recently used; an expired one is dropped. */
  private fresh(key: string, now: number): Entry<V> | undefined {
    const entry = this.settled?.get(key);
    if (entry === undefined || isFresh(entry, now)) return entry;
    this.settled!.delete(key);
    return undefined;
  }

  /** Drops expired values from the least recently used end, up to the first fresh one. */
  private dropExpired(now: number): void {
    if (this.settled === null) return;
    const expired: string[] = [];
    for (const [key, entry] of this.settled.rentries() as Generator<[string, Entry<V>]>) {
      if (isFresh(entry, now)) break;
      expired.push(key);
    }
    for (const key of expired) this.settled.delete(key);
  }
}

/**
 * Within its ttl of its start either way: `now` is when the asking request started, which may be before a
 * value a later request loaded.
 */
function isFresh(entry: Entry<unknown>, now: number): boolean {
  return Math.abs(now - entry.at) < entry.ttlMs;
}
