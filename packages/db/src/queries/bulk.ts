import type { Sql } from '../sql.js';

/**
 * The PostgreSQL types a bulk column's array parameter is cast to. A `bytea` field holds its bytes as hex in
 * the row, written as PostgreSQL's hex input (`\x…`).
 */
export type PgType = 'text' | 'int4' | 'int8' | 'bool' | 'float8' | 'json' | 'bytea';

/** A column of a bulk insert: its name and the PostgreSQL type its array parameter is cast to. */
export type BulkColumn = readonly [name: string, type: string];

/**
 * A row type's columns: every field with its PostgreSQL type, the column being the field's snake_case name.
 * The mapped type makes a field added to the row without a column (or the reverse) a compile error.
 */
export type ColumnTypes<R> = { readonly [K in keyof R]-?: PgType };

/** A named row type laid onto a table's columns, in one fixed order. */
export interface RowShape<R> {
  readonly columns: readonly BulkColumn[];
  /** The row as the array COPY and `unnest` take, in `columns` order. */
  values(row: R): unknown[];
}

/** The column a row field is stored in: `blockHeight` → `block_height`, `certV1` → `cert_v1`. */
export function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The shape of a named row: its columns from its fields, and the one place named rows become arrays. */
export function rowShape<R>(types: ColumnTypes<R>): RowShape<R> {
  const fields = Object.keys(types) as (keyof R & string)[];
  const columns = fields.map((f) => [columnOf(f), types[f]] as const);
  const hex = fields.map((f) => types[f] === 'bytea');
  return {
    columns,
    values(row) {
      const out = new Array<unknown>(fields.length);
      for (let i = 0; i < fields.length; i++) {
        const v = row[fields[i]!];
        out[i] = hex[i] && typeof v === 'string' ? `\\x${v}` : v;
      }
      return out;
    },
  };
}

const CHUNK = 10_000;

/**
 * Inserts rows with COPY where the driver offers it (plain appends only), otherwise through one `unnest` of
 * typed array parameters per chunk: one round trip for thousands of rows, the same SQL on both drivers.
 * `suffix` may add an ON CONFLICT clause.
 */
export async function bulkInsert(
  sql: Sql,
  name: string,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly (readonly unknown[])[],
  suffix = '',
): Promise<void> {
  if (rows.length === 0) return;
  if (!suffix && sql.copyRows) {
    await sql.copyRows(
      table,
      columns.map((c) => c[0]),
      rows,
      name,
    );
    return;
  }
  const cols = columns.map((c) => c[0]).join(', ');
  // Bytes travel as their hex input text (`\x…`), which every driver sends as it is.
  const params = columns
    .map((c, i) => (c[1] === 'bytea' ? `$${i + 1}::text[]::bytea[]` : `$${i + 1}::${c[1]}[]`))
    .join(', ');
  const text = `INSERT INTO ${table} (${cols}) SELECT * FROM unnest(${params}) ${suffix}`;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    const arrays = columns.map((_, i) => chunk.map((r) => r[i]));
    await sql.query(text, arrays, name);
  }
}

/** `bulkInsert` of named rows, laid out by their shape. */
export function bulkWrite<R>(
  sql: Sql,
  name: string,
  table: string,
  shape: RowShape<R>,
  rows: readonly R[],
  suffix = '',
): Promise<void> {
  return bulkInsert(sql, name, table, shape.columns, rows.map(shape.values), suffix);
}
