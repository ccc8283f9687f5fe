/** A small least-recently-used map: the in-process cache of immutable responses. */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}

  /** Returns the value and marks it recently used. */
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  /** Stores a value, evicting the least recently used beyond the bound. */
  set(key: string, value: V): void {
    if (this.max <= 0) return;
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }

  /** Forgets entries from the least recently used end for as long as `stale` says so. */
  dropWhile(stale: (value: V) => boolean): void {
    for (const [key, value] of this.map) {
      if (!stale(value)) return;
      this.map.delete(key);
    }
  }

  /** Forgets one key. */
  delete(key: string): void {
    this.map.delete(key);
  }

  /** Drops everything (after a reorg deeper than the finality depth, which the indexer refuses anyway). */
  clear(): void {
    this.map.clear();
  }

  /** Entries held. */
  get size(): number {
    return this.map.size;
  }
}
