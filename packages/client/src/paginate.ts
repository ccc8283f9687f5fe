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
  /**
   * Stop after this many items (default: follow the list to its end). A request asks only for the items still
   * needed, so the last page costs no more rows than it gives.
   */
  max?: number;
}

/** Options of `.pages()`. */
export interface PagesOptions extends AllOptions {
  /** Stop after this many pages (default: follow the list to its end). */
  maxPages?: number;
}

/** How a PagedRequest reads and trims its pages, besides loading them. */
export interface PagedRequestOptions<P, T> {
  /**
   * The page size the query asks for (its `limit`), when known: a walk with `max` then asks the first page for
   * fewer. Later pages take the size from the `pagination.limit` the server answered with.
   */
  pageSize?: number;
  /** Rebuilds a page holding only the given items, so that `.pages({ max })` yields no more than `max`. */
  withItems?: (page: P, items: readonly T[]) => P;
}

/** One step of a walk: the page, and its items cut to what is still wanted. */
interface Step<P, T> {
  page: P;
  items: readonly T[];
  /** How many of the page's items are wanted, when fewer than it holds. */
  keep: number | null;
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
// P is an operation's success body: a list's always has `pagination` (its type says so), read below as the
// PageInfo every list shares.
export class PagedRequest<P extends object, T> implements PromiseLike<P> {
  readonly #load: (cursor: string | null, limit?: number) => Promise<P>;
  readonly #items: (page: P) => readonly T[];
  readonly #pageSize: number | undefined;
  // Kept without T in a parameter, so that a list of T is still a list of its supertypes (covariant).
  readonly #cut: ((page: P, keep: number) => P) | undefined;
  #first: Promise<P> | null = null;

  /**
   * @param load fetches the page after `cursor` (null: the first page); `limit`, when given, replaces the
   *   query's page size for that request.
   * @param items reads the items of a page.
   */
  constructor(
    load: (cursor: string | null, limit?: number) => Promise<P>,
    items: (page: P) => readonly T[],
    options: PagedRequestOptions<P, T> = {},
  ) {
    this.#load = load;
    this.#items = items;
    this.#pageSize = options.pageSize;
    const { withItems } = options;
    this.#cut = withItems && ((page, keep) => withItems(page, items(page).slice(0, keep)));
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
   * Walks the list: follows `nextCursor` until the list ends, `maxPages` pages or `max` items. With `max`, a
   * request whose page size is known asks only for the items still needed.
   */
  async *#walk(opts: PagesOptions): AsyncGenerator<Step<P, T>, void, undefined> {
    const max = opts.max ?? Number.POSITIVE_INFINITY;
    const maxPages = opts.maxPages ?? Number.POSITIVE_INFINITY;
    if (max <= 0) return;
    let size = this.#pageSize;
    const limitFor = (left: number) => (size !== undefined && left < size ? left : undefined);
    // A first page already awaited is reused as it is; a trimmed one is not kept for a later await.
    const firstLimit = this.#first ? undefined : limitFor(max);
    let page = await (firstLimit === undefined ? this.#firstPage() : this.#load(null, firstLimit));
    let given = 0;
    const seen = new Set<string>();
    for (let n = 1; ; n++) {
      const all = this.#items(page);
      const keep = all.length > max - given ? max - given : null;
      const items = keep === null ? all : all.slice(0, keep);
      given += items.length;
      yield { page, items, keep };
      const info = (page as { pagination?: PageInfo }).pagination;
      const next = info?.nextCursor;
      if (given >= max || n >= maxPages || !info?.hasMore || next === undefined) return;
      // A server bug that hands back a cursor twice would otherwise loop forever.
      if (seen.has(next)) throw new Error(`the API returned the cursor ${next} twice`);
      seen.add(next);
      size = info.limit ?? size;
      page = await this.#load(next, limitFor(max - given));
    }
  }

  /**
   * Iterates the pages, first to last, following `nextCursor`; with `max`, until the pages hold that many items
   * (the last one cut to fit).
   * @example for await (const page of client.blocks.list({ limit: 100 }).pages({ maxPages: 3 })) console.log(page.blocks.length)
   */
  async *pages(opts: PagesOptions = {}): AsyncGenerator<P, void, undefined> {
    for await (const { page, keep } of this.#walk(opts))
      yield keep !== null && this.#cut ? this.#cut(page, keep) : page;
  }

  /**
   * Iterates the items of every page, following `nextCursor`, until the list ends or `max` items were given.
   * @example for await (const block of client.blocks.list({ limit: 100 }).all({ max: 250 })) console.log(block.height)
   */
  async *all(opts: AllOptions = {}): AsyncGenerator<T, void, undefined> {
    for await (const { items } of this.#walk({ max: opts.max })) yield* items;
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
