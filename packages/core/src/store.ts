import type { PageOf } from './pagination/cursor-key.js';
import type {
  addressFlowsKey,
  addressMempoolKey,
  addressTxsKey,
  addressUtxosKey,
  blockOutputsKey,
  blocksKey,
  blockTxsKey,
  multiAddressTxsKey,
  multiAddressUtxosKey,
  poolPayoutsKey,
  topMinersKey,
  txInputsKey,
  txOutputsKey,
  txOutspendsKey,
  txsKey,
} from './pagination/keys.js';
import type {
  AddressMempool,
  AddressMempoolTx,
  AddressSummary,
  AddressTx,
  BalancePoint,
  FlowRow,
  FlowSummary,
  MultiAddressTx,
  MultiAddressUtxo,
  Utxo,
} from './schemas/address.js';
import type { Network, PoolAnalytics, Pouw, Supply } from './schemas/analytics.js';
import type { Block, Certificate, Input, Output } from './schemas/block.js';
import type { ChainIdentity } from './schemas/chain.js';
import type { FeeEstimates } from './schemas/events.js';
import type { DailyBlocks, Miner, PayoutOutput, Pool, PoolShare, PoolWindow } from './schemas/mining.js';
import type { MempoolSummary } from './schemas/search.js';
import type { SyncProgress } from './schemas/status.js';
import type { Outspend, Tx, TxFlow, TxProof, TxWithCounterparties } from './schemas/tx.js';
import type { MarketStore } from './store-market.js';
import type { SearchStore } from './store-search.js';

/** A block addressed by height or by hash. */
export type BlockRef = { height: number } | { hash: string };

/** What a list of a block's rows belongs to, read with its first page. */
export interface BlockKey {
  height: number;
  hash: string;
}

/** What a list of a transaction's rows belongs to, read with its first page. */
export interface TxKey {
  txid: string;
  blockHeight: number;
}

/** The indexed tips and the time of the tip block. */
export interface TipInfo {
  height: number;
  hash: string | null;
  txHeight: number;
  /** Block time of the tip; null before the first block. */
  time: number | null;
}

/** What the indexer last recorded about itself. */
export interface IndexerStateInfo {
  state: string;
  error: string | null;
  tipHeight: number;
  tipHash: string | null;
  txTipHeight: number;
  nodeHeight: number | null;
  reorgs: number;
  lastReorgDepth: number | null;
  lastReorgAt: string | null;
  updatedAt: string;
  /** The chain the database holds; null before the indexer first asked the node. */
  chain: ChainIdentity | null;
  /** The last progress report of the sync running now; null when none runs. */
  progress: SyncProgress | null;
}

/** The mempool as the indexer's watcher last read it, with the fee estimates it computed then. */
export interface StoredMempoolState {
  /** When the node was asked (ISO 8601). */
  takenAt: string;
  summary: MempoolSummary;
  fees: FeeEstimates;
}

// Records leave out what depends on the moment of the request (confirmations); handlers add it from meta.
/** A block without its confirmations. */
export type BlockRecord = Omit<Block, 'confirmations'>;
/** A transaction without its confirmations. */
export type TxRecord = Omit<Tx, 'confirmations'>;
/** An output as a transaction in full lists it: its value, script, address and script type. */
export interface TxDetailOutput {
  /** Base units, as decimal text. */
  value: string;
  /** The scriptPubKey, hex. */
  script: string;
  address: string | null;
  /** The index's script type (`p2pkh`, `p2tr`…). */
  scriptType: string;
}

/** An input as a transaction in full lists it: what it spends (null for a coinbase), its scriptSig and witness. */
export interface TxDetailInput {
  prevTxid: string | null;
  prevVout: number | null;
  /** The scriptSig (a coinbase's data), hex. */
  scriptSig: string;
  /** Witness items, hex; empty without a witness. */
  witness: string[];
  sequence: number;
  /** The output it spends; null for a coinbase. */
  prevout: TxDetailOutput | null;
}

/** An address's confirmed statistics (amounts as decimal text). */
export interface AddressChainStats {
  funded: number;
  fundedSum: string;
  spent: number;
  spentSum: string;
  txCount: number;
  /** Its transactions waiting in the mempool (the mempool watcher's), newest first, at most 50. */
  mempoolTxids: string[];
}

/** A transaction in full: its summary, every input with what it spends, every output with its script. */
export interface TxDetail {
  tx: TxRecord;
  inputs: TxDetailInput[];
  outputs: TxDetailOutput[];
}

/** A recent transaction without its confirmations. */
export type TxWithCounterpartiesRecord = Omit<TxWithCounterparties, 'confirmations'>;
/** An address transaction without its confirmations. */
export type AddressTxRecord = Omit<AddressTx, 'confirmations'>;
/** A UTXO without its confirmations. */
export type UtxoRecord = Omit<Utxo, 'confirmations'>;
/** A many-address history transaction without its confirmations. */
export type MultiAddressTxRecord = Omit<MultiAddressTx, 'confirmations'>;
/** A many-address UTXO without its confirmations. */
export type MultiAddressUtxoRecord = Omit<MultiAddressUtxo, 'confirmations'>;
/** A pool as the store finds it (the handler says whether it was seen). */
export type PoolRecord = Omit<Pool, 'seen'>;

/**
 * Everything the handlers read. `@explorer/db` implements it over SQL; list methods return the rows after the
 * keyset position (or offset) of the page request, in the order of the list's cursor key (declared beside its
 * route, which also types the position): at least `limit + 1` where that many exist, more allowed (the page is
 * cut from them).
 */
export interface Store extends SearchStore, MarketStore {
  /** The indexed tips. */
  tip(): Promise<TipInfo>;
  /** A trivial round trip, to measure database latency. */
  ping(): Promise<void>;
  /** The indexer's recorded state. */
  indexerState(): Promise<IndexerStateInfo>;
  /** Hash of the indexed block at a height (null above the tip): what cursors' reorg guards compare with. */
  blockHashAt(height: number): Promise<string | null>;

  getBlock(ref: BlockRef): Promise<BlockRecord | null>;
  /** Newest first. */
  listBlocks(page: PageOf<typeof blocksKey>): Promise<BlockRecord[]>;
  getCertificate(ref: BlockRef, includeProof: boolean): Promise<Certificate | null>;
  coinbaseOutputs(height: number): Promise<Output[]>;
  /**
   * Block order, with the block (null when the index does not holds it), in one statement. A page after a cursor
   * names the block by height.
   */
  listBlockOutputs(
    block: BlockRef,
    page: PageOf<typeof blockOutputsKey>,
  ): Promise<{ block: BlockKey | null; outputs: Output[] }>;
  getBlockRaw(ref: BlockRef): Promise<unknown | null>;
  /** Block order, with the block (null when the index does not hold it), as listBlockOutputs. */
  listBlockTxs(
    block: BlockRef,
    page: PageOf<typeof blockTxsKey>,
  ): Promise<{ block: BlockKey | null; txs: TxRecord[] }>;

  /** Newest first. */
  listTxs(page: PageOf<typeof txsKey>): Promise<TxWithCounterpartiesRecord[]>;
  getTx(txid: string): Promise<TxRecord | null>;
  getTxFlow(txid: string): Promise<TxFlow | null>;
  /** In input order, with the transaction (null when the index does not hold it), in one statement. */
  listTxInputs(
    txid: string,
    page: PageOf<typeof txInputsKey>,
  ): Promise<{ tx: TxKey | null; inputs: Input[] }>;
  /** In output order, with the transaction, as listTxInputs. */
  listTxOutputs(
    txid: string,
    page: PageOf<typeof txOutputsKey>,
  ): Promise<{ tx: TxKey | null; outputs: Output[] }>;
  getTxRaw(txid: string): Promise<unknown | null>;
  /**
   * Transactions in full, in the order asked (txids the index does not hold are left out): for the protocol
   * adapters, whose transactions carry scripts, witnesses and what each input spends. One statement.
   */
  getTxDetails(txids: readonly string[]): Promise<TxDetail[]>;
  /** The txids of a block, in block order; null when the index does not hold the block. */
  blockTxids(ref: BlockRef): Promise<string[] | null>;
  /**
   * An address's confirmed statistics as Esplora counts them, from its one row: outputs paid to it and their
   * sum, those spent and theirs, and its transactions (zeros for an address the index has not seen); with the
   * txids of its mempool transactions, in the same statement.
   */
  addressChainStats(address: string): Promise<AddressChainStats>;
  /** The address whose output script hashes (SHA-256, hex as hashed) to `scriptHash`; null for none indexed. */
  addressByScriptHash(scriptHash: string): Promise<string | null>;
  /**
   * Where a transaction is confirmed and what proves it: its block, position, merkle branch (from the block's
   * txids, read in one statement) and header bytes; null when the index does not hold it.
   */
  getTxProof(txid: string): Promise<TxProof | null>;
  /** Spend state of a transaction's outputs, in output order (one statement); null when the index does not hold it. */
  listTxOutspends(txid: string, page: PageOf<typeof txOutspendsKey>): Promise<Outspend[] | null>;

  /** Totals of an address; an address never seen gets zeros and `seen: false`. */
  getAddress(address: string): Promise<AddressSummary>;
  /** Newest first. */
  listAddressTxs(address: string, page: PageOf<typeof addressTxsKey>): Promise<AddressTxRecord[]>;
  /** Newest first. */
  listAddressUtxos(address: string, page: PageOf<typeof addressUtxosKey>): Promise<UtxoRecord[]>;
  /** One point per UTC day with activity, oldest first. */
  balanceHistory(address: string): Promise<BalancePoint[]>;
  /** Totals and windows measured back from `now` (unix seconds). */
  flowSummary(address: string, now: number): Promise<FlowSummary>;
  /** Newest first. */
  listAddressFlows(address: string, page: PageOf<typeof addressFlowsKey>): Promise<FlowRow[]>;
  /** Totals of each address, in the order given (one statement); never-seen addresses as getAddress has them. */
  getAddresses(addresses: readonly string[]): Promise<AddressSummary[]>;
  /**
   * The merged history of the addresses, newest first, each transaction once with its amounts summed over the
   * addresses it touched (one statement).
   */
  listMultiAddressTxs(
    addresses: readonly string[],
    page: PageOf<typeof multiAddressTxsKey>,
  ): Promise<MultiAddressTxRecord[]>;
  /**
   * The totals of addresses taken as one wallet (one statement): distinct transactions, and what they brought in
   * and took out, each transaction by its net over the addresses (payments between them count for nothing).
   */
  getWalletTotals(addresses: readonly string[]): Promise<{ txCount: number; received: string; sent: string }>;
  /** The addresses' unspent outputs merged, newest first (one statement). */
  listMultiAddressUtxos(
    addresses: readonly string[],
    page: PageOf<typeof multiAddressUtxosKey>,
  ): Promise<MultiAddressUtxoRecord[]>;
  /** The address's mempool transactions as the watcher last stored them, newest first. */
  listAddressMempoolTxs(address: string, page: PageOf<typeof addressMempoolKey>): Promise<AddressMempoolTx[]>;
  /** The confirmed balance with the mempool's totals for the address, read in one snapshot. */
  addressMempool(address: string): Promise<AddressMempool>;

  /** Most blocks first. */
  listTopMiners(page: PageOf<typeof topMinersKey>): Promise<Miner[]>;
  /** A payout address's mining totals (zeros and `seen: false` when it mined nothing). */
  getMiner(address: string): Promise<Miner>;
  /** Blocks a payout address mined, newest first. */
  listMinerBlocks(address: string, page: PageOf<typeof blocksKey>): Promise<BlockRecord[]>;
  /** Blocks per UTC day for a payout address, oldest first. */
  minerBlocksOverTime(address: string): Promise<DailyBlocks[]>;
  /** Pool shares over a window ending at the tip, most blocks first. */
  poolShares(window: PoolWindow, limit: number): Promise<{ blocks: number; pools: PoolShare[] }>;
  /** A pool by id; null when it is neither defined nor has blocks. */
  getPool(poolId: string): Promise<PoolRecord | null>;
  /** Blocks per UTC day for a pool, oldest first. */
  poolBlocksOverTime(poolId: string): Promise<DailyBlocks[]>;
  /** Coinbase outputs of a pool's blocks, newest first. */
  listPoolPayoutOutputs(poolId: string, page: PageOf<typeof poolPayoutsKey>): Promise<PayoutOutput[]>;
  /** Tip difficulty and hashrate windows (node figures are added by the handler). */
  network(): Promise<Pick<Network, 'height' | 'tipTime' | 'difficulty' | 'hashrate'>>;
  /** Certificate analytics. */
  pouw(): Promise<Pouw>;
  /** Supply at the tip. */
  supply(): Promise<Supply>;
  /** Pool share windows and the daily difficulty/hashrate overlay. */
  poolAnalytics(): Promise<PoolAnalytics>;
  /** The mempool state the indexer's watcher last stored; null before its first reading. */
  mempoolState(): Promise<StoredMempoolState | null>;
  /**
   * The lowest fee rate (base units per vbyte, rounded up to 0.001) each of the last `blocks` indexed blocks
   * included, newest first; blocks with only a coinbase are left out.
   */
  recentBlockFloors(blocks: number): Promise<number[]>;
}
