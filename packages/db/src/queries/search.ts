import type { Sql } from '../sql.js';

// Prefix lookups are written as a range over the COLLATE "C" primary/unique keys
// (`key >= prefix AND key < successor(prefix)`), which a btree serves in key order with any driver and any
// plan (generic or custom), unlike LIKE with a bound pattern.

/**
 * The smallest string greater than every string starting with `prefix` (byte order): the prefix with its last
 * character incremented. Prefixes handed to the range queries are ASCII letters and digits.
 */
export function prefixUpperBound(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/** Escapes LIKE wildcards (`%`, `_`) and the escape character itself, for `LIKE … ESCAPE '\'`. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A block row of a search. */
export interface SearchBlockQueryRow {
  height: number;
  hash: string;
}

/** A transaction row of a search. */
export interface SearchTxQueryRow {
  txid: string;
  block_height: number;
}

/** An address row of a search: seen, label, mined blocks. */
export interface SearchAddressQueryRow {
  address: string;
  seen: boolean;
  label: string | null;
  miner_blocks: number | null;
}

/** A pool row of a search. */
export interface SearchPoolQueryRow {
  id: string;
  name: string;
  blocks: number;
}

/** The indexed blocks among the given heights, ascending (primary key). */
export function selectBlocksAtHeights(sql: Sql, heights: readonly number[]): Promise<SearchBlockQueryRow[]> {
  return sql.query<SearchBlockQueryRow>(
    'SELECT height, hash FROM blocks WHERE height = ANY($1::int4[]) ORDER BY height',
    [heights],
    'search.blocks-at-heights',
  );
}

/** The block with this hash (unique index). */
export async function selectBlockByHash(sql: Sql, hash: string): Promise<SearchBlockQueryRow | null> {
  const [row] = await sql.query<SearchBlockQueryRow>(
    'SELECT height, hash FROM blocks WHERE hash = $1',
    [hash],
    'search.block-by-hash',
  );
  return row ?? null;
}

/** The transaction with this txid (primary key). */
export async function selectTxById(sql: Sql, txid: string): Promise<SearchTxQueryRow | null> {
  const [row] = await sql.query<SearchTxQueryRow>(
    'SELECT txid, block_height FROM txs WHERE txid = $1',
    [txid],
    'search.tx-by-id',
  );
  return row ?? null;
}

/** For each given address (in order): whether it is seen, its label, its mined blocks (primary keys). */
export function selectSearchAddresses(
  sql: Sql,
  addresses: readonly string[],
): Promise<SearchAddressQueryRow[]> {
  return sql.query<SearchAddressQueryRow>(
    `SELECT v.address, a.address IS NOT NULL AS seen, l.label, m.blocks AS miner_blocks
     FROM unnest($1::text[]) WITH ORDINALITY AS v(address, n)
     LEFT JOIN addresses a ON a.address = v.address COLLATE "C"
     LEFT JOIN known_labels l ON l.address = v.address COLLATE "C"
     LEFT JOIN miner_stats m ON m.address = v.address COLLATE "C"
     ORDER BY v.n`,
    [addresses],
    'search.addresses',
  );
}

/**
 * Pools whose id or name equals `text` case-insensitively, with their block counts; the `unknown` pool (no
 * definition) when it has blocks. The pools table holds dozens of rows.
 */
export function selectSearchPools(sql: Sql, text: string): Promise<SearchPoolQueryRow[]> {
  return sql.query<SearchPoolQueryRow>(
    `SELECT p.id, p.name, coalesce(s.blocks, 0) AS blocks
     FROM pools p LEFT JOIN pool_stats s ON s.pool_id = p.id
     WHERE lower(p.id) = lower($1) OR lower(p.name) = lower($1)
     UNION ALL
     SELECT s.pool_id, 'Unknown', s.blocks FROM pool_stats s
     WHERE s.pool_id = 'unknown' AND lower($1) = 'unknown' AND NOT EXISTS (SELECT 1 FROM pools WHERE id = 'unknown')
     ORDER BY 2, 1`,
    [text],
    'search.pools',
  );
}

/** Addresses whose label equals `text` case-insensitively (served by the lower(label) index). */
export function selectSearchLabels(
  sql: Sql,
  text: string,
  limit: number,
): Promise<{ address: string; label: string; kind: string }[]> {
  return sql.query(
    'SELECT address, label, kind FROM known_labels WHERE lower(label) = lower($1) ORDER BY address LIMIT $2',
    [text, limit],
    'search.labels',
  );
}

/** Blocks whose hash starts with `prefix`, in hash order (range over the unique index on hash). */
export function selectSuggestBlocks(sql: Sql, prefix: string, limit: number): Promise<SearchBlockQueryRow[]> {
  return sql.query<SearchBlockQueryRow>(
    'SELECT height, hash FROM blocks WHERE hash >= $1 AND hash < $2 ORDER BY hash LIMIT $3',
    [prefix, prefixUpperBound(prefix), limit],
    'suggest.blocks',
  );
}

/** Transactions whose txid starts with `prefix`, in txid order (range over the primary key). */
export function selectSuggestTxs(sql: Sql, prefix: string, limit: number): Promise<SearchTxQueryRow[]> {
  return sql.query<SearchTxQueryRow>(
    'SELECT txid, block_height FROM txs WHERE txid >= $1 AND txid < $2 ORDER BY txid LIMIT $3',
    [prefix, prefixUpperBound(prefix), limit],
    'suggest.txs',
  );
}

/** Addresses starting with `prefix`, in byte order (range over the primary key), with their labels. */
export function selectSuggestAddresses(
  sql: Sql,
  prefix: string,
  limit: number,
): Promise<{ address: string; label: string | null }[]> {
  return sql.query(
    `SELECT a.address, l.label
     FROM (SELECT address FROM addresses WHERE address >= $1 AND address < $2 ORDER BY address LIMIT $3) a
     LEFT JOIN known_labels l ON l.address = a.address
     ORDER BY a.address`,
    [prefix, prefixUpperBound(prefix), limit],
    'suggest.addresses',
  );
}

/**
 * Pools whose name (index on lower(name) text_pattern_ops) or id starts with `prefix` case-insensitively,
 * plus `unknown` when it has blocks; by name.
 */
export function selectSuggestPools(sql: Sql, prefix: string, limit: number): Promise<SearchPoolQueryRow[]> {
  return sql.query<SearchPoolQueryRow>(
    `SELECT id, name, blocks FROM (
       SELECT p.id, p.name, coalesce(s.blocks, 0) AS blocks
       FROM pools p LEFT JOIN pool_stats s ON s.pool_id = p.id
       WHERE lower(p.name) LIKE lower($1) ESCAPE '\\' OR lower(p.id) LIKE lower($1) ESCAPE '\\'
       UNION ALL
       SELECT s.pool_id, 'Unknown', s.blocks FROM pool_stats s
       WHERE s.pool_id = 'unknown' AND 'unknown' LIKE lower($1) ESCAPE '\\'
         AND NOT EXISTS (SELECT 1 FROM pools WHERE id = 'unknown')
     ) x ORDER BY lower(name), id LIMIT $2`,
    [`${escapeLike(prefix)}%`, limit],
    'suggest.pools',
  );
}

/** Every known label with the name of its pool. */
export function selectKnownLabels(
  sql: Sql,
): Promise<
  { address: string; label: string; kind: string; pool_id: string | null; pool_name: string | null }[]
> {
  return sql.query(
    `SELECT l.address, l.label, l.kind, l.pool_id, p.name AS pool_name
     FROM known_labels l LEFT JOIN pools p ON p.id = l.pool_id
     ORDER BY l.label, l.address`,
    [],
    'labels.all',
  );
}

/** Every pool definition. */
export function selectKnownPools(
  sql: Sql,
): Promise<{ id: string; name: string; link: string | null; addresses: string[]; tags: string[] }[]> {
  return sql.query(
    'SELECT id, name, link, addresses, tags FROM pools ORDER BY name, id',
    [],
    'pools.definitions',
  );
}
