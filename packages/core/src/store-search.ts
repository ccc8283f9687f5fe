import type { KnownLabel, KnownPool } from './schemas/search.js';

/** A block found by height, hash or hash prefix. */
export interface SearchBlockRow {
  height: number;
  hash: string;
}

/** A transaction found by txid or txid prefix. */
export interface SearchTxRow {
  txid: string;
  blockHeight: number;
}

/** What the database knows about an address that was searched for. */
export interface SearchAddressRow {
  address: string;
  /** An indexed transaction touches it (it has a row in `addresses`). */
  seen: boolean;
  /** Its known label, if any. */
  label: string | null;
  /** Blocks whose reward it received (from `miner_stats`); null when it never mined. */
  minerBlocks: number | null;
}

/** An address found by prefix, with its known label. */
export interface SuggestAddressRow {
  address: string;
  label: string | null;
}

/** A pool found by id or name (exact or prefix), including the `unknown` pool when blocks attribute to it. */
export interface SearchPoolRow {
  id: string;
  name: string;
  /** Blocks attributed to the pool (0 when none). */
  blocks: number;
}

/** An address whose known label matched the query. */
export interface SearchLabelRow {
  address: string;
  label: string;
  kind: string;
}

/** What /v1/search looks up for one term (see SearchStore.search). */
export interface SearchQuery {
  height: number | null;
  hash: string | null;
  addresses: readonly string[];
  text: string;
  labelLimit: number;
}

/** What one search found, part by part. */
export interface SearchResults {
  /** The block at the asked height, if indexed. */
  height: SearchBlockRow | null;
  /** The block with the asked hash, if indexed. */
  block: SearchBlockRow | null;
  /** The transaction with the asked txid, if indexed. */
  tx: SearchTxRow | null;
  /** One row per asked address, in the order asked. */
  addresses: SearchAddressRow[];
  pools: SearchPoolRow[];
  labels: SearchLabelRow[];
}

/**
 * The reads of /v1/search, /v1/search/suggest and /v1/known-addresses. `@explorer/db` implements it
 * (`createSearchStore`); it is meant to be merged into `Store`.
 */
export interface SearchStore {
  /** The indexed blocks among `heights`, ascending. */
  searchBlocksAtHeights(heights: readonly number[]): Promise<SearchBlockRow[]>;
  /**
   * Everything a search term can name, in one lookup: the block at `height`, the block with hash `hash` and the
   * transaction with that txid (lowercase hex), one row per address of `addresses` (same order), pools whose id
   * or name equals `text` case-insensitively (by name, plus `unknown` when it has blocks), and at most
   * `labelLimit` addresses whose label equals `text` case-insensitively (by address). A part whose input is
   * null (or an empty list) is not looked up.
   */
  search(query: SearchQuery): Promise<SearchResults>;
  /**
   * In one lookup: blocks whose hash and transactions whose txid start with `prefix` (lowercase hex), each in
   * key order and at most `limit`.
   */
  suggestHex(prefix: string, limit: number): Promise<{ blocks: SearchBlockRow[]; txs: SearchTxRow[] }>;
  /** Addresses starting with `prefix` (case-sensitive), in byte order. */
  suggestAddresses(prefix: string, limit: number): Promise<SuggestAddressRow[]>;
  /** Pools whose id or name starts with `prefix` case-insensitively, by name. */
  suggestPools(prefix: string, limit: number): Promise<SearchPoolRow[]>;
  /** Every known label, with the pool name when it names a pool. */
  knownLabels(): Promise<KnownLabel[]>;
  /** Every pool definition. */
  knownPools(): Promise<KnownPool[]>;
}
