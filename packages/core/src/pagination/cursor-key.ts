import type { z } from 'zod';
import type { CursorKey } from './cursor.js';
import type { PageRequest } from './params.js';
import { guardedKey } from './reorg-guard.js';

/** The JSON type of a key column's value: what a returning cursor is checked against. */
export type KeyColumnType = 'number' | 'string';

/** The fields of an item that can be key columns: those that always hold a number or a string. */
export type KeyField<Item> = Exclude<
  { [F in keyof Item & string]: Item[F] extends number | string ? F : never }[keyof Item & string],
  undefined
>;

/** The fields of an item that always hold a number (heights, for confirmations). */
export type NumberField<Item> = Exclude<
  { [F in keyof Item & string]: Item[F] extends number ? F : never }[keyof Item & string],
  undefined
>;

/** The fields of an item that always hold a string (a block hash, for the reorg guard). */
export type StringField<Item> = Exclude<
  { [F in keyof Item & string]: Item[F] extends string ? F : never }[keyof Item & string],
  undefined
>;

/** The keyset position of a key over `Columns` of `Item`: one value per column, in order. */
export type KeyValues<Item, Columns extends readonly unknown[]> = {
  readonly [I in keyof Columns]: Columns[I] extends keyof Item
    ? Item[Columns[I]] extends number
      ? number
      : string
    : never;
};

/**
 * A list's cursor key: the item fields it is ordered by (most significant first), their types read from the
 * item schema, the direction, and optionally the field holding the block hash whose prefix rides in the cursor
 * as reorg guard. Plain data: core derives the key function and cursor checks from it, `@explorer/db` the
 * keyset SQL (each field names its column).
 */
export interface CursorKeyDef<
  S extends z.ZodObject = z.ZodObject,
  Columns extends readonly string[] = readonly string[],
  Guard extends string | null = string | null,
> {
  /** The schema of the list's items: its fields give the columns' types. */
  readonly item: S;
  /** The key's columns: item fields, most significant first. */
  readonly columns: Columns;
  /** The JSON type of each column, in order. */
  readonly types: readonly KeyColumnType[];
  /** `desc` lists newest (largest) first; `asc` in natural order. */
  readonly order: 'asc' | 'desc';
  /**
   * The field holding the hash of the block at the first column's height, for lists whose key starts with a
   * block height: a prefix of it is carried in the cursor and checked when it returns (reorg-guard.ts).
   */
  readonly guard: Guard;
  /** The key function: the keyset position of a row (the last of a page). */
  keyOf(row: Pick<z.output<S>, Columns[number] & keyof z.output<S>>): KeyValues<z.output<S>, Columns>;
  /** What a cursor after `row` carries: its key, plus the guard's hash prefix when the key is guarded. */
  cursorOf(row: Pick<z.output<S>, (Columns[number] | Guard) & keyof z.output<S>>): CursorKey;
}

/** Any list's cursor key. */
export type AnyCursorKey = CursorKeyDef<z.ZodObject, readonly string[], string | null>;

/** The keyset position type of a cursor key. */
export type KeyOf<K> =
  K extends CursorKeyDef<infer S, infer Columns, string | null> ? KeyValues<z.output<S>, Columns> : never;

/** The page request of a list ordered by cursor key `K`: its `after` is a position of that key. */
export type PageOf<K> = PageRequest<KeyOf<K>>;

/**
 * Declares a list's cursor key from its item schema: the columns are item fields holding numbers or strings
 * (their types come from the schema), `order` the direction, `guard` the block hash field of a list keyed by
 * block height first.
 * @example cursorKey(TxSchema, ['blockHeight', 'blockIndex'], { order: 'desc', guard: 'blockHash' })
 */
export function cursorKey<
  S extends z.ZodObject,
  const Columns extends readonly [KeyField<z.output<S>>, ...KeyField<z.output<S>>[]],
  Guard extends StringField<z.output<S>> | null = null,
>(
  item: S,
  columns: Columns,
  options: { order: 'asc' | 'desc'; guard?: Guard },
): CursorKeyDef<S, Columns, Guard> {
  const shape = item.shape as Record<string, { type?: string } | undefined>;
  const types = columns.map((column) => {
    const type = shape[column]?.type;
    // The types say a column is a number or a string; this catches a schema built at run time that is not.
    if (type !== 'number' && type !== 'string')
      throw new TypeError(`cursor key column ${column} must be a number or string field of the item`);
    return type;
  });
  const guard = (options.guard ?? null) as Guard;
  if (guard !== null && types[0] !== 'number')
    throw new TypeError('a reorg-guarded cursor key starts with a block height');
  const keyOf = (row: Record<string, unknown>) => columns.map((column) => row[column]);
  return {
    item,
    columns,
    types,
    order: options.order,
    guard,
    keyOf: keyOf as CursorKeyDef<S, Columns, Guard>['keyOf'],
    cursorOf: (row: Record<string, unknown>) => {
      const key = keyOf(row) as CursorKey;
      return guard === null ? key : guardedKey(key, row[guard] as string);
    },
  };
}
