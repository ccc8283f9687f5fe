import { z } from 'zod';
import type { RouteDefinition, RouteResult } from '../route.js';
import { confirmations, guardStore } from '../routes/params.js';
import type { AnyCursorKey, NumberField, PageOf } from './cursor-key.js';
import { pageQuery, pageRequest, toPage } from './params.js';
import { guardedPageRequest } from './reorg-guard.js';

const listQuery = <X extends z.ZodRawShape>(extra?: X) => z.object({ ...(extra as X), ...pageQuery });

/** The query schema of a list: limit, cursor and the legacy offset, after the list's own parameters `X`. */
export type ListQuery<X extends z.ZodRawShape = Record<never, never>> = ReturnType<typeof listQuery<X>>;

/** What a list's callbacks read: the route context of its path parameters and the list query. */
export type ListContext<
  P extends z.ZodObject | undefined,
  X extends z.ZodRawShape = Record<never, never>,
> = Parameters<RouteDefinition<P, ListQuery<X>, z.ZodRawShape>['handler']>[0];

type ItemOf<K extends AnyCursorKey> = z.output<K['item']>;

/** A row as the store returns it: an item without what the handler adds (its confirmations). */
export type RowOf<K extends AnyCursorKey> = Omit<ItemOf<K>, 'confirmations'>;

/** The body members of a list: `E` (read beside the page), then the items under `M`. */
export type ListShape<M extends string, K extends AnyCursorKey, E extends z.ZodRawShape> = E & {
  [X in M]: z.ZodArray<K['item']>;
};

// Items whose schema has `confirmations` must say which of their heights it is counted from.
type ConfirmationsOption<K extends AnyCursorKey> = 'confirmations' extends keyof ItemOf<K>
  ? {
      /** The row field holding the height from which each item's `confirmations` is counted. */
      confirmations: NumberField<RowOf<K>>;
    }
  : { confirmations?: never };

/** One list endpoint: the route's own fields, its items and cursor key, and how its page is read. */
export type ListDefinition<
  I extends string,
  P extends z.ZodObject | undefined,
  M extends string,
  K extends AnyCursorKey,
  Parent,
  E extends z.ZodRawShape,
  X extends z.ZodRawShape = Record<never, never>,
> = Pick<
  RouteDefinition<P, ListQuery<X>, ListShape<M, K, E>, I>,
  'id' | 'path' | 'tag' | 'summary' | 'description' | 'params' | 'notFound' | 'perTip' | 'cost'
> & {
  /** Query parameters of the list besides limit, cursor and offset (the addresses of a many-address list). */
  query?: X;
  /** The body member holding the page's items (`blocks`, `txs` …). */
  items: M;
  /** The key the list is ordered and paged by; its item schema is the items' schema. */
  key: K;
  /** Reads what the list belongs to (a block, a transaction) before the page; throws the 404 when absent. */
  parent?(ctx: ListContext<P, X>): Promise<Parent>;
  /**
   * Reads what the list belongs to and its first page in one statement (what a link to the list asks for: no
   * cursor, no offset), instead of `parent` then `load`; throws the 404 when absent.
   */
  first?(ctx: ListContext<P, X>, page: PageOf<K>): Promise<{ parent: Parent; rows: RowOf<K>[] }>;
  /** Names the list a cursor belongs to (`blocks`, `address-txs:<address>`): other lists refuse its cursors. */
  scope(ctx: ListContext<P, X>, parent: Parent): string;
  /** Reads at least `limit + 1` rows (where there are) after the page request's position, in the key's order. */
  load(ctx: ListContext<P, X>, page: PageOf<K>, parent: Parent): Promise<RowOf<K>[]>;
  /** Body members besides the items, listed before them and read beside the page. */
  also?: { response: E; load(ctx: ListContext<P, X>, parent: Parent): Promise<z.output<z.ZodObject<E>>> };
  /** Whether the whole body can never change again (see RouteResult). */
  immutable?(ctx: ListContext<P, X>, parent: Parent): boolean;
} & ConfirmationsOption<K>;

/** A list endpoint as the route table holds it: a route whose body always carries `pagination`. */
export type ListRoute<
  I extends string,
  P extends z.ZodObject | undefined,
  X extends z.ZodRawShape,
  S extends z.ZodRawShape,
> = RouteDefinition<P, ListQuery<X>, S, I, true>;

/**
 * Declares a list endpoint: the route's handler (parent → scope → page request, reorg-guarded when the key is →
 * store call → page and cursor → confirmations), its query and its response all follow from one declaration,
 * and its cursor key is the one `@explorer/db` builds the keyset SQL from.
 * @example defineList({ id: 'listBlocks', path: '/v1/blocks', items: 'blocks', key: blocksKey, scope: () => 'blocks', … })
 */
export function defineList<
  const I extends string,
  P extends z.ZodObject | undefined,
  const M extends string,
  K extends AnyCursorKey,
  Parent = undefined,
  E extends z.ZodRawShape = Record<never, never>,
  X extends z.ZodRawShape = Record<never, never>,
>(def: ListDefinition<I, P, M, K, Parent, E, X>): ListRoute<I, P, X, ListShape<M, K, E>> {
  const {
    items,
    key,
    parent,
    first,
    scope,
    load,
    also,
    immutable,
    confirmations: heightField,
    query,
    ...route
  } = def;
  return {
    ...route,
    query: listQuery(query),
    response: { ...also?.response, [items]: z.array(key.item) } as ListShape<M, K, E>,
    list: true,
    async handler(ctx) {
      // The page parameters every list query has, whatever the list's own parameters are.
      const q = ctx.query as z.output<ListQuery>;
      let owner: Parent;
      let name: string;
      let req: PageOf<K>;
      let read: Promise<RowOf<K>[]>;
      if (first && q.cursor === undefined && !q.offset) {
        // No cursor to check against the list's scope: the parent and the page come in one read.
        req = pageRequest(q, '', key.types) as PageOf<K>;
        const r = await first(ctx, req);
        owner = r.parent;
        name = scope(ctx, owner);
        read = Promise.resolve(r.rows);
      } else {
        owner = (await parent?.(ctx)) as Parent;
        name = scope(ctx, owner);
        req = (
          key.guard === null
            ? pageRequest(q, name, key.types)
            : await guardedPageRequest(guardStore(ctx), q, name, key.types)
        ) as PageOf<K>; // the cursor was checked against the key's types as it was decoded
        read = load(ctx, req, owner);
      }
      const [rows, extra] = await Promise.all([read, also?.load(ctx, owner)]);
      const page = toPage(rows, req, q, name, (row) => key.cursorOf(row));
      const height = heightField as keyof RowOf<K> | undefined;
      const list =
        height === undefined
          ? page.items
          : page.items.map((row) => ({ ...row, confirmations: confirmations(ctx, row[height] as number) }));
      return {
        body: { ...extra, [items]: list },
        pagination: page.pagination,
        ...(immutable ? { immutable: immutable(ctx, owner) } : {}),
      } as RouteResult<z.output<z.ZodObject<ListShape<M, K, E>>>>;
    },
  };
}
