import type { AnyCursorKey, CursorKey, PageOf } from '@explorer/core';

/** A key stored as other columns than its fields: `pack` maps the key's values onto `columns`, order kept. */
export interface PackedKey {
  columns: readonly string[];
  pack(after: CursorKey): readonly unknown[];
}

/** The SQL column of a key field under a table alias: `blockHeight` in `t` is `t.block_height`. */
const columnOf = (alias: string, field: string) =>
  `${alias}.${field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;

/**
 * Builds the keyset SQL of a list from its cursor key (declared in core beside the route, so the order, the
 * cursor and the SQL cannot drift apart): `(a, b) < ($n, $n+1)` after the last row of the previous page (`>`
 * for an ascending key; an OFFSET for legacy clients instead), then `ORDER BY a DESC, b DESC LIMIT limit + 1`,
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
  params.push(page.limit + 1);
  const limit = `$${params.length}`;
  params.push(page.after ? 0 : page.offset);
  const offset = `$${params.length}`;
  const order = `ORDER BY ${sqlColumns.map((c) => `${c} ${key.order.toUpperCase()}`).join(', ')}`;
  return { where, order, tail: `${order} LIMIT ${limit} OFFSET ${offset}` };
}
