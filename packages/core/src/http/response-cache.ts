/** A rendered success body: the members besides meta, its ETag, and whether it can never change. */
export interface RenderedBody {
  /** The body members without braces and without meta (`"block":{…}`), as the ETag covers them. */
  text: string;
  etag: string;
  immutable: boolean;
  /** Set instead of a body when the answer is a 404 with this message. */
  notFound?: string;
}

interface Entry {
  at: number;
  value: Promise<RenderedBody>;
  /** Approximate memory held once settled (0 while in flight). */
  bytes: number;
}

/** Per-entry bookkeeping besides the text (key, map slot, promise), in bytes. */
const OVERHEAD = 256;

/**
 * Rendered bodies of chain-derived responses, keyed by URL and indexed tip, each kept for at most `ttlMs`:
 * requests for the same URL at the same tip share one load, in flight or done. Bounded by an approximate byte
 * budget (least recently used first out); a body larger than an eighth of the budget is served but not kept,
 * and a failed load is never kept.
 */
export class ResponseCache {
  private readonly map = new Map<string, Entry>();
  private held = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly ttlMs: number,
  ) {}

  /** Whether anything is ever kept. */
  get enabled(): boolean {
    return this.maxBytes > 0 && this.ttlMs > 0;
  }

  /** Approximate bytes held by settled entries. */
  get bytes(): number {
    return this.held;
  }

  /** Entries held, settled or in flight. */
  get size(): number {
    return this.map.size;
  }

  /** The fresh entry under `key` (settled or in flight), marked recently used; expired entries are dropped. */
  get(key: string, now: number): Promise<RenderedBody> | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    if (!this.fresh(e, now)) {
      this.remove(key, e);
      return undefined;
    }
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** Runs `load` and keeps its result under `key` (replacing any entry there); returns the load's promise. */
  load(key: string, now: number, load: () => Promise<RenderedBody>): Promise<RenderedBody> {
    const value = load();
    if (!this.enabled) return value;
    const entry: Entry = { at: now, value, bytes: 0 };
    const old = this.map.get(key);
    if (old !== undefined) this.remove(key, old);
    this.map.set(key, entry);
    value.then(
      (body) => {
        if (this.map.get(key) !== entry) return;
        const bytes = body.text.length + key.length + body.etag.length + OVERHEAD;
        if (bytes > this.maxBytes / 8) {
          this.remove(key, entry);
          return;
        }
        entry.bytes = bytes;
        this.held += bytes;
        this.evict(now);
      },
      () => {
        if (this.map.get(key) === entry) this.remove(key, entry);
      },
    );
    return value;
  }

  /**
   * Within ttl of its start either way: `now` is when the asking request started, which may be before an entry
   * a later request created; a clock that jumped by more than the ttl ends the entry.
   */
  private fresh(e: Entry, now: number): boolean {
    return Math.abs(now - e.at) < this.ttlMs;
  }

  private remove(key: string, e: Entry): void {
    this.map.delete(key);
    this.held -= e.bytes;
  }

  /** Drops expired entries from the least recently used end, then whatever the budget cannot hold. */
  private evict(now: number): void {
    for (const [key, e] of this.map) {
      if (this.held <= this.maxBytes && this.fresh(e, now)) break;
      // An entry still in flight holds nothing yet; leave it to settle.
      if (e.bytes === 0 && this.fresh(e, now)) continue;
      this.remove(key, e);
    }
  }
}
