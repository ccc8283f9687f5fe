/** A page as the queries receive it (the shape of core's PageRequest). */
export interface Page {
  limit: number;
  after: readonly (string | number)[] | null;
  offset: number;
}

/**
 * Builds the keyset condition and paging tail of a list query: `(a, b) < ($n, $n+1)` after the last row of
 * the previous page (or an OFFSET for legacy clients), then `LIMIT limit + 1` so the caller knows whether
 * another page follows. Returns the SQL fragments and appends their parameters to `params`.
 */
export function keyset(
  page: Page,
  columns: readonly string[],
  direction: 'asc' | 'desc',
  params: unknown[],
): { where: string; tail: string } {
  let where = 'TRUE';
  if (page.after && page.after.length === columns.length) {
    const placeholders = page.after.map((v) => {
      params.push(v);
      return `$${params.length}`;
    });
    where = `(${columns.join(', ')}) ${direction === 'desc' ? '<' : '>'} (${placeholders.join(', ')})`;
  }
  params.push(page.limit + 1);
  const limit = `$${params.length}`;
  params.push(page.after ? 0 : page.offset);
  const offset = `$${params.length}`;
  const order = columns.map((c) => `${c} ${direction.toUpperCase()}`).join(', ');
  return { where, tail: `ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}` };
}
