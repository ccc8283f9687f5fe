import type { ParsedBlock, ParsedTx } from '../ingest/parse.js';
import type { NodeClient } from '../node-client.js';

/** The chain families the indexer reads. */
export type ChainProfileName = 'bitcoin' | 'pearl';

/** The prefixes a network's addresses carry. */
export interface ChainAddresses {
  /** Human-readable part of segwit addresses (bech32, bech32m). */
  bech32Hrp: string;
  /** Human-readable part of MWEB addresses (Litecoin); null where there is no MWEB. */
  mwebHrp: string | null;
  /**
   * Base58Check version bytes: P2PKH, P2SH as the node writes it, and an older P2SH byte still read (Litecoin's);
   * null where the chain has no Base58 addresses (Pearl).
   */
  base58: { pubkeyHash: number; scriptHash: number; legacyScriptHash: number | null } | null;
}

/** What the indexer records about the chain it indexes; the API reports it as it is. */
export interface ChainInfo {
  profile: ChainProfileName;
  /** The node's network name (pearld's chaincfg name; Core's `chain`), when known. */
  network: string | null;
  /** How people call the network, e.g. `Litecoin regtest`; null for a Core fork whose genesis is not known. */
  name: string | null;
  /** Hash of block 0. A database holds one chain: a node with another genesis is refused. */
  genesisHash: string;
  /** Whether the genesis hash is the published one of `network` (else fork heights are not known). */
  knownGenesis: boolean;
  units: { symbol: string | null; baseUnit: string; decimals: number };
  /** The prefixes of the network's addresses; null where they are not known. */
  addresses: ChainAddresses | null;
  /** The emission schedule the supply figures use; null when the subsidy is taken from the coinbases. */
  emissionFormula: string | null;
  /** Base units the schedule will ever emit (decimal string); null when not known. */
  maxSupply: string | null;
  /** Heights from which each certificate version is required, where the network's parameters are known. */
  certificateForks: Record<string, number | null> | null;
  /** JSON-RPC calls the node does not answer, so nothing above the indexer asks it for them. */
  unsupportedCalls: string[];
  /** Seconds the chain aims to put between blocks (fee estimates turn ~30 min and ~1 h into blocks with it). */
  blockSeconds: number;
  /** Virtual bytes one block may hold (fee estimates fill projected blocks of this size). */
  maxBlockVsize: number;
}

/** How the indexer reads one chain family: fetching and decoding blocks, its emission, its checkpoints. */
export interface ChainProfile {
  readonly info: ChainInfo;
  /**
   * Fetches and decodes the blocks of these heights and hashes, in order. `prevHash` is the hash of the block
   * before the first (null before genesis).
   */
  fetchBlocks(
    node: NodeClient,
    heights: number[],
    hashes: string[],
    prevHash: string | null,
  ): Promise<ParsedBlock[]>;
  /** The hash a checkpoint pins at this height, if any. */
  checkpoint(height: number): string | undefined;
  /**
   * Fetches and decodes transactions by txid (the mempool's: a confirmed one needs the node's tx index), in
   * order; null for one the node no longer has.
   */
  fetchTxs(node: NodeClient, txids: readonly string[]): Promise<(ParsedTx | null)[]>;
}

/** The node serves a chain the database does not hold, or not the one CHAIN names. */
export class ChainProfileError extends Error {
  override readonly name = 'ChainProfileError';
}
