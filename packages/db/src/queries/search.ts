import type { Sql } from '../sql.js';
import { heightOf, txidIs } from '../tx-no.js';

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

/**
 * The range of txids' first 8 bytes that txids starting with a hex `prefix` (at least one digit) fall in:
 * `[low, high)`; for a prefix of only `f`s, `high` is 9 bytes, above every 8-byte value.
 */
export function txidPrefixRange(prefix: string): [Buffer, Buffer] {
  if (!/^[0-9a-fA-F]+$/.test(prefix)) throw new RangeError(`not a hex prefix: ${prefix}`);
  const digits = prefix.toLowerCase().slice(0, 16);
  const low = Buffer.from(digits.padEnd(16, '0'), 'hex');
  // The smallest 8 bytes above every txid with this prefix: the prefix as a number, plus one, padded.
  let n = BigInt(`0x${digits}`) + 1n;
  n <<= BigInt(4 * (16 - digits.length));
  // All 'f': past the last 8-byte value; one byte longer still sorts above every 8-byte string.
  const high =
    n >= 1n << 64n
      ? Buffer.from('ffffffffffffffff00', 'hex')
      : Buffer.from(n.toString(16).padStart(16, '0'), 'hex');
  return [low, high];
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

/** A 64-hex search term's matches, from one statement: the block with that hash, the transaction with that txid. */
export interface HashMatchesQueryRow {
  kind: 'block' | 'tx';
  id: string;
  height: number;
}

/** The block with this hash (unique index) and the transaction with this txid (primary key), in one statement. */
export function selectHashMatches(sql: Sql, hash: string): Promise<HashMatchesQueryRow[]> {
  return sql.query<HashMatchesQueryRow>(
    `SELECT 'block' AS kind, hash AS id, height FROM blocks WHERE hash = $1
     UNION ALL
     SELECT 'tx', encode(txid, 'hex'), ${heightOf('tx_no')} FROM txs WHERE ${txidIs('txid', '$1')}`,
    [hash],
    'search.hash',
  );
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

/** A pool or a label whose name a search term equals; `ord` orders each kind's rows. */
export interface NameMatchQueryRow {
  kind: 'pool' | 'label';
  ord: number;
  /** The pool's id, or the labelled address. */
  id: string;
  /** The pool's name, or the label. */
  name: string;
  /** A pool's blocks (0 when none); null for a label. */
  blocks: number | null;
  /** A label's kind; null for a pool. */
  label_kind: string | null;
}

/**
 * In one statement: pools whose id or name equals `text` case-insensitively, with their block counts, by name
 * (plus the `unknown` pool, which has no definition, when it has blocks); and at most `limit` addresses whose
 * label equals `text` case-insensitively (the lower(label) index), by address. The pools table holds dozens
 * of rows.
 */
export function selectNameMatches(sql: Sql, text: string, limit: number): Promise<NameMatchQueryRow[]> {
  return sql.query<NameMatchQueryRow>(
    `SELECT kind, ord, id, name, blocks, label_kind FROM (
       SELECT 'pool' AS kind, (row_number() OVER (ORDER BY name, id))::int4 AS ord, id COLLATE "C" AS id, name,
              blocks, NULL::text AS label_kind
       FROM (SELECT p.id, p.name, coalesce(s.blocks, 0) AS blocks
             FROM pools p LEFT JOIN pool_stats s ON s.pool_id = p.id
             WHERE lower(p.id) = lower($1) OR lower(p.name) = lower($1)
             UNION ALL
             SELECT s.pool_id, 'Unknown', s.blocks FROM pool_stats s
             WHERE s.pool_id = 'unknown' AND lower($1) = 'unknown' AND NOT EXISTS (SELECT 1 FROM pools WHERE id = 'unknown')) p
       UNION ALL
       SELECT 'label', (row_number() OVER (ORDER BY address))::int4, address, label, NULL::int4, kind
       FROM (SELECT address, label, kind FROM known_labels WHERE lower(label) = lower($1) ORDER BY address LIMIT $2) l
     ) m ORDER BY kind DESC, ord`,
    [text, limit],
    'search.names',
  );
}

/** The hex prefix statement: a txid prefix longer than the indexed 8 bytes (16 digits) is rechecked. */
const hexPrefixSql = (recheck: boolean) => `SELECT kind, id, height FROM (
    (SELECT 'block' AS kind, hash AS id, height FROM blocks WHERE hash >= $1 AND hash < $2 ORDER BY hash LIMIT $3)
    UNION ALL
    (SELECT 'tx', encode(txid, 'hex'), ${heightOf('tx_no')} FROM txs
     WHERE substring(txid FROM 1 FOR 8) >= $4 AND substring(txid FROM 1 FOR 8) < $5
       ${recheck ? "AND encode(txid, 'hex') LIKE $6" : ''}
     ORDER BY substring(txid FROM 1 FOR 8) LIMIT $3)
  ) m ORDER BY kind, id`;
const HEX_PREFIX = hexPrefixSql(false);
const LONG_HEX_PREFIX = hexPrefixSql(true);

/**
 * In one statement: blocks whose hash and transactions whose txid start with `prefix`, each in key order and
 * at most `limit` (ranges over the unique index on hash and the index on the txids' first 8 bytes).
 */
export function selectHexPrefixMatches(
  sql: Sql,
  prefix: string,
  limit: number,
): Promise<HashMatchesQueryRow[]> {
  const params = [prefix, prefixUpperBound(prefix), limit, ...txidPrefixRange(prefix)];
  return prefix.length > 16
    ? sql.query<HashMatchesQueryRow>(
        LONG_HEX_PREFIX,
        [...params, `${prefix.toLowerCase()}%`],
        'suggest.hex-long',
      )
    : sql.query<HashMatchesQueryRow>(HEX_PREFIX, params, 'suggest.hex');
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
