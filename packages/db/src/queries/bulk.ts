import type { Sql } from '../sql.js';

/** A column of a bulk insert: its name and the PostgreSQL type its array parameter is cast to. */
export type BulkColumn = readonly [name: string, type: string];

const CHUNK = 10_000;

/**
 * Inserts rows with COPY where the driver offers it (plain appends only), otherwise through one `unnest` of typed array parameters per chunk: one round trip for thousands of
 * rows, the same SQL on both drivers. `suffix` may add an ON CONFLICT clause.
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
  const params = columns.map((c, i) => `$${i + 1}::${c[1]}[]`).join(', ');
  const text = `INSERT INTO ${table} (${cols}) SELECT * FROM unnest(${params}) ${suffix}`;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    const arrays = columns.map((_, i) => chunk.map((r) => r[i]));
    await sql.query(text, arrays, name);
  }
}
