/** The pagination object of a list page. */
export interface PageInfo {
  limit: number;
  cursor: string | null;
  nextCursor?: string;
  hasMore: boolean;
  offset?: number;
}

/** Options of `.all()`. */
export interface AllOptions {
  /** Stop after this many items (default: follow the list to its end). */
  max?: number;
}

/** Options of `.pages()`. */
export interface PagesOptions {
  /** Stop after this many pages (default: follow the list to its end). */
  maxPages?: number;
}

/**
 * A list request: awaiting it gives the first page (the whole envelope, with `pagination`); `.all()` iterates
 * the items across pages by following `pagination.nextCursor`, and `.pages()` iterates the pages. Nothing is
 * sent until it is awaited or iterated; each `.all()`/`.pages()` walks the list afresh (reusing the awaited
 * first page, if any).
 * @example
 * const first = await client.addresses.txs(addr, { limit: 50 }); // first.txs, first.pagination
 * for await (const tx of client.addresses.txs(addr, { limit: 100 }).all({ max: 500 })) console.log(tx.txid)
 */
export class PagedRequest<P extends { pagination?: PageInfo }, T> implements PromiseLike<P> {
  readonly #load: (cursor: string | null) => Promise<P>;
  readonly #items: (page: P) => readonly T[];
  #first: Promise<P> | null = null;

  constructor(load: (cursor: string | null) => Promise<P>, items: (page: P) => readonly T[]) {
    this.#load = load;
    this.#items = items;
  }

  #firstPage(): Promise<P> {
    this.#first ??= this.#load(null);
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: a list request is awaited for its first page by design.
  then<A = P, B = never>(
    onfulfilled?: ((page: P) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onfulfilled, onrejected);
  }

  /** Like Promise#catch, on the first page. */
  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<P | B> {
    return this.#firstPage().catch(onrejected);
  }

  /** Like Promise#finally, on the first page. */
  finally(onfinally?: (() => void) | null): Promise<P> {
    return this.#firstPage().finally(onfinally);
  }

  /**
   * Iterates the pages, first to last, following `nextCursor`.
   * @example for await (const page of client.blocks.list({ limit: 100 }).pages({ maxPages: 3 })) console.log(page.blocks.length)
   */
  async *pages(opts: PagesOptions = {}): AsyncGenerator<P, void, undefined> {
    const maxPages = opts.maxPages ?? Number.POSITIVE_INFINITY;
    let page = await this.#firstPage();
    const seen = new Set<string>();
    for (let n = 1; ; n++) {
      yield page;
      const next = page.pagination?.nextCursor;
      if (n >= maxPages || !page.pagination?.hasMore || next === undefined) return;
      // A server bug that hands back a cursor twice would otherwise loop forever.
      if (seen.has(next)) throw new Error(`the API returned the cursor ${next} twice`);
      seen.add(next);
      page = await this.#load(next);
    }
  }

  /**
   * Iterates the items of every page, following `nextCursor`, until the list ends or `max` items were given.
   * @example for await (const block of client.blocks.list({ limit: 100 }).all({ max: 250 })) console.log(block.height)
   */
  async *all(opts: AllOptions = {}): AsyncGenerator<T, void, undefined> {
    const max = opts.max ?? Number.POSITIVE_INFINITY;
    if (max <= 0) return;
    let given = 0;
    for await (const page of this.pages()) {
      for (const item of this.#items(page)) {
        yield item;
        if (++given >= max) return;
      }
    }
  }

  /**
   * Collects `.all()` into an array.
   * @example const utxos = await client.addresses.utxos(addr, { limit: 100 }).toArray({ max: 1000 })
   */
  async toArray(opts: AllOptions = {}): Promise<T[]> {
    const out: T[] = [];
    for await (const item of this.all(opts)) out.push(item);
    return out;
  }
}
