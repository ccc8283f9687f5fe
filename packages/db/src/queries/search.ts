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

/** A block or a transaction whose hash or txid starts with a prefix. */
export interface HexMatchQueryRow {
  kind: 'block' | 'tx';
  id: string;
  height: number;
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

/** A row of a search: what one part of it found. */
export interface SearchQueryRow {
  kind: 'height' | 'block' | 'tx' | 'address' | 'pool' | 'label';
  /** Order within the kind. */
  ord: number;
  /** A block's hash, a txid, an address, a pool's id, a labelled address. */
  id: string;
  /** A pool's name, an address's or a labelled address's label. */
  name: string | null;
  /** A block's or a transaction's height. */
  height: number | null;
  /** A pool's blocks, an address's mined blocks (null when it mined none). */
  blocks: number | null;
  /** Whether an address is indexed. */
  seen: boolean | null;
  /** A label's kind. */
  label_kind: string | null;
}

/**
 * Everything a search term can name, in one statement: each part the term's shape calls for (a height, a
 * hash, addresses), and always the pools and labels named as the term; every part is a primary or unique key
 * lookup, the pools table holds dozens of rows. A handful of statement texts, one per combination of parts.
 */
export function selectSearch(
  sql: Sql,
  q: {
    height: number | null;
    hash: string | null;
    addresses: readonly string[];
    text: string;
    labelLimit: number;
  },
): Promise<SearchQueryRow[]> {
  const params: unknown[] = [q.text, q.labelLimit];
  const at = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  // The first part names and types the columns; the others follow it.
  const parts = [
    `SELECT NULL::text AS kind, NULL::int4 AS ord, NULL::text AS id, NULL::text AS name, NULL::int4 AS height,
            NULL::int4 AS blocks, NULL::bool AS seen, NULL::text AS label_kind WHERE FALSE`,
  ];
  if (q.height !== null)
    parts.push(`SELECT 'height', 0, hash, NULL, height, NULL, NULL, NULL FROM blocks
                WHERE height = ${at(q.height)}::int4`);
  if (q.hash !== null) {
    const hash = `${at(q.hash)}::text`;
    parts.push(
      `SELECT 'block', 0, hash, NULL, height, NULL, NULL, NULL FROM blocks WHERE hash = ${hash}`,
      `SELECT 'tx', 0, encode(txid, 'hex'), NULL, ${heightOf('tx_no')}, NULL, NULL, NULL FROM txs
       WHERE ${txidIs('txid', hash)}`,
    );
  }
  if (q.addresses.length > 0) {
    const values = q.addresses.map((a, i) => `(${i + 1}, ${at(a)}::text)`).join(', ');
    parts.push(`SELECT 'address', v.n, v.address, l.label, NULL, m.blocks, a.address IS NOT NULL, NULL
                FROM (VALUES ${values}) v(n, address)
                LEFT JOIN addresses a ON a.address = v.address COLLATE "C"
                LEFT JOIN known_labels l ON l.address = v.address COLLATE "C"
                LEFT JOIN miner_stats m ON m.address = v.address COLLATE "C"`);
  }
  parts.push(
    `SELECT 'pool', (row_number() OVER (ORDER BY name, id))::int4, id COLLATE "C", name, NULL, blocks, NULL, NULL
     FROM (SELECT p.id, p.name, coalesce(s.blocks, 0) AS blocks
           FROM pools p LEFT JOIN pool_stats s ON s.pool_id = p.id
           WHERE lower(p.id) = lower($1::text) OR lower(p.name) = lower($1::text)
           UNION ALL
           SELECT s.pool_id, 'Unknown', s.blocks FROM pool_stats s
           WHERE s.pool_id = 'unknown' AND lower($1::text) = 'unknown'
             AND NOT EXISTS (SELECT 1 FROM pools WHERE id = 'unknown')) p`,
    `SELECT 'label', (row_number() OVER (ORDER BY address))::int4, address, label, NULL, NULL, NULL, kind
     FROM (SELECT address, label, kind FROM known_labels WHERE lower(label) = lower($1::text)
           ORDER BY address LIMIT $2::int4) l`,
  );
  return sql.query<SearchQueryRow>(
    `SELECT * FROM (${parts.map((p) => `(${p})`).join('\n UNION ALL ')}) m ORDER BY kind, ord`,
    params,
    'search.all',
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
export function selectHexPrefixMatches(sql: Sql, prefix: string, limit: number): Promise<HexMatchQueryRow[]> {
  const params = [prefix, prefixUpperBound(prefix), limit, ...txidPrefixRange(prefix)];
  return prefix.length > 16
    ? sql.query<HexMatchQueryRow>(
        LONG_HEX_PREFIX,
        [...params, `${prefix.toLowerCase()}%`],
        'suggest.hex-long',
      )
    : sql.query<HexMatchQueryRow>(HEX_PREFIX, params, 'suggest.hex');
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
