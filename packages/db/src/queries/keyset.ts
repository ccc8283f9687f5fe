import type { AnyCursorKey, CursorKey, PageOf } from '@explorer/core';

/** A key stored as other columns than its fields: `pack` maps the key's values onto `columns`, order kept. */
export interface PackedKey {
  columns: readonly string[];
  pack(after: CursorKey): readonly unknown[];
}

/** The SQL column of a key field under a table alias: `blockHeight` in `t` is `t.block_height`. */
const columnOf = (alias: string, field: string) =>
  `${alias}.${field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;

/** The row counts a page statement reads: the page and its look-ahead row, rounded up to one of these. */
const PAGE_ROWS = [11, 21, 51, 101] as const;

/**
 * Rows a statement reads for a page of `limit`: at least `limit + 1` (whether another page follows), rounded up
 * to one of a few sizes so each statement keeps a handful of texts, and of plans, however many limits are asked.
 * @example pageRows(20) // 21; pageRows(25) // 51
 */
export function pageRows(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new RangeError(`a page's limit is a non-negative integer, not ${limit}`);
  return PAGE_ROWS.find((n) => n > limit) ?? limit + 1;
}

/**
 * Builds the keyset SQL of a list from its cursor key (declared in core beside the route, so the order, the
 * cursor and the SQL cannot drift apart): `(a, b) < ($n, $n+1)` after the last row of the previous page (`>`
 * for an ascending key; an OFFSET for legacy clients instead), then `ORDER BY a DESC, b DESC LIMIT <pageRows(limit)>`,
 * so the caller knows whether another page follows. Each key field is the snake_case column of that name under
 * `alias`, unless `columns` names another (a column of a joined table), or `columns` packs the whole key into
 * other stored columns in the same order (a block height and index as one transaction number). Appends the
 * parameters to `params`; `order` alone is for an outer query that must keep the order of a page cut in a
 * subquery.
 * @example keyset(blockOutputsKey, page, params, 'o', { columns: ['o.tx_no', 'o.vout'], pack }) // (o.tx_no, o.vout) > ($2, $3) …
 */
export function keyset<K extends AnyCursorKey>(
  key: K,
  page: PageOf<K>,
  params: unknown[],
  alias: string,
  columns: Partial<Record<K['columns'][number], string>> | PackedKey = {},
): { where: string; order: string; tail: string } {
  const packed = 'pack' in columns ? (columns as PackedKey) : null;
  const named = columns as Partial<Record<string, string>>;
  const sqlColumns = packed?.columns ?? key.columns.map((field) => named[field] ?? columnOf(alias, field));
  let where = 'TRUE';
  if (page.after) {
    const values = packed ? packed.pack(page.after) : page.after;
    const placeholders = values.map((v) => {
      params.push(v);
      return `$${params.length}`;
    });
    where = `(${sqlColumns.join(', ')}) ${key.order === 'desc' ? '<' : '>'} (${placeholders.join(', ')})`;
  }
  // The row count is written into the text, not passed: a plan for an unknown LIMIT is costed as if it read a
  // tenth of the table, so PostgreSQL would never settle on one plan per statement and would plan every call
  // again. The count is rounded up to one of a few sizes (pageRows), so a statement has at most four texts
  // whatever limits clients ask for; the extra rows are cut off with the page. A legacy offset stays a
  // parameter (it is rare, and up to 10,000 values would each be a statement of their own).
  const rows = pageRows(page.limit);
  const order = `ORDER BY ${sqlColumns.map((c) => `${c} ${key.order.toUpperCase()}`).join(', ')}`;
  let tail = `${order} LIMIT ${rows}`;
  if (!page.after && page.offset > 0) {
    params.push(page.offset);
    tail += ` OFFSET $${params.length}`;
  }
  return { where, order, tail };
}
