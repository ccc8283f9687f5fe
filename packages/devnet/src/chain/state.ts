import type { CertificatePlan } from './certificate.js';

/** A spendable output the simulated wallets control; identity matters (reorgs re-check coins by reference). */
export interface Coin {
  txid: string;
  vout: number;
  value: number;
  key: number;
  /** Confirmation height, -1 while only in the mempool. */
  height: number;
  coinbase: boolean;
  /** Which spending pool it belongs to (0 general, then busy addresses, faucet). */
  pool: number;
  /** Index in its pool array, -1 when not in a pool. */
  slot: number;
}

/** One transaction with the bookkeeping needed to mine it, undo it and report on it. */
export interface TxEntry {
  txid: string;
  wtxid: string;
  bytes: Buffer;
  size: number;
  vsize: number;
  weight: number;
  segwit: boolean;
  fee: number;
  /** Unix time it entered the mempool. */
  time: number;
  /** Chain height when it entered the mempool. */
  height: number;
  spent: Coin[];
  created: Coin[];
  inCount: number;
  inValue: number;
  /** Σ value and count of outputs that enter the UTXO set (all but OP_RETURN). */
  outValue: number;
  outCount: number;
  opReturnValue: number;
  burnValue: number;
  coinbase: boolean;
}

/**
 * Running totals along a branch, stored per block so a reorg needs no recomputation. Amounts are bigints:
 * Pearl's emission passes 2^53 base units after about 28,000 blocks.
 */
export interface Cumulative {
  txs: number;
  /** Σ subsidy by the emission schedule. */
  emitted: bigint;
  /** Σ subsidy coinbases left unclaimed (scheduled − claimed). */
  unclaimed: bigint;
  fees: bigint;
  opReturn: bigint;
  utxoValue: bigint;
  utxoCount: number;
  burn: bigint;
}

/**
 * A block as kept in memory: its header and transactions as bytes (a Pearl block's certificate is rebuilt on
 * demand, see blockBytes) plus the few derived facts RPC needs.
 */
export interface StoredBlock {
  seq: number;
  hash: string;
  height: number;
  prevHash: string | undefined;
  version: number;
  merkleRoot: string;
  time: number;
  bits: number;
  /** Bitcoin's header nonce; null in Pearl's header, which has none. */
  nonce: number | null;
  mediantime: number;
  /** Header, tx count and txs (no certificate). */
  raw: Buffer;
  /** Bytes of the header at the start of `raw` (80 for Bitcoin, 108 for Pearl). */
  headerSize: number;
  /** Start of each tx in `raw`, and its end. */
  offsets: Uint32Array;
  txids: string[];
  fees: Float64Array;
  size: number;
  strippedSize: number;
  weight: number;
  chainwork: bigint;
  /** Subsidy by the emission schedule. */
  subsidy: number;
  /** Of that, what the coinbase did not claim. */
  unclaimed: number;
  totalFees: number;
  pool: string;
  miner: string | undefined;
  /** Pearl's certificate (every Pearl block has one); undefined in the Bitcoin dialect. */
  certificate: CertificatePlan | undefined;
  cum: Cumulative;
  /** Undo data, kept only for the most recent blocks (reorg depth limit). */
  entries: TxEntry[] | undefined;
}

/** How many recent blocks keep undo data; reorgs deeper than this are refused. */
export const UNDO_WINDOW = 1000;

/** Block storage, best chain, wallet-visible UTXO view (chain + mempool applied) and mempool. */
export class ChainState {
  readonly blocks = new Map<string, StoredBlock>();
  readonly all: StoredBlock[] = [];
  readonly best: StoredBlock[] = [];
  readonly txIndex = new Map<string, number>();
  readonly mempool: TxEntry[] = [];
  readonly mempoolIndex = new Map<string, TxEntry>();
  readonly pools: Coin[][];
  private readonly utxo = new Map<string, (Coin | undefined)[]>();
  private immature: Coin[] = [];
  /** Coinbase outputs that most recently became spendable (pools pay their miners out of these). */
  matured: Coin[] = [];

  constructor(
    poolCount: number,
    private readonly maturity: number,
  ) {
    this.pools = Array.from({ length: poolCount }, () => []);
  }

  /** Current best height (-1 before genesis). */
  get height(): number {
    return this.best.length - 1;
  }

  /** Best tip. */
  tip(): StoredBlock | undefined {
    return this.best[this.best.length - 1];
  }

  /** The current coin object for an outpoint in the view, if unspent. */
  coin(txid: string, vout: number): Coin | undefined {
    return this.utxo.get(txid)?.[vout];
  }

  /** Whether a coin may be spent by a tx that could be mined in the next block. */
  spendable(c: Coin): boolean {
    return !c.coinbase || this.height + 1 - c.height >= this.maturity;
  }

  private addCoin(c: Coin): void {
    let arr = this.utxo.get(c.txid);
    if (!arr) {
      arr = [];
      this.utxo.set(c.txid, arr);
    }
    arr[c.vout] = c;
    if (this.spendable(c)) this.poolAdd(c);
    else this.immature.push(c);
  }

  private removeCoin(c: Coin): void {
    const arr = this.utxo.get(c.txid);
    if (arr?.[c.vout] !== c) throw new Error(`coin ${c.txid}:${c.vout} is not in the view`);
    arr[c.vout] = undefined;
    if (arr.every((x) => x === undefined)) this.utxo.delete(c.txid);
    if (c.slot >= 0) this.poolRemove(c);
    else if (c.coinbase) {
      const i = this.immature.indexOf(c);
      if (i >= 0) this.immature.splice(i, 1);
    }
  }

  private poolAdd(c: Coin): void {
    const pool = this.pools[c.pool] as Coin[];
    c.slot = pool.length;
    pool.push(c);
    if (c.coinbase) {
      this.matured.push(c);
      if (this.matured.length > 32) this.matured = this.matured.slice(-16);
    }
  }

  /** Takes a coin out of its pool (swap-remove) so it cannot be picked twice. */
  poolRemove(c: Coin): void {
    const pool = this.pools[c.pool] as Coin[];
    const last = pool.pop() as Coin;
    if (last !== c) {
      pool[c.slot] = last;
      last.slot = c.slot;
    }
    c.slot = -1;
  }

  /** Puts back a coin that was picked but not used. */
  poolReturn(c: Coin): void {
    if (c.slot < 0) this.poolAdd(c);
  }

  /** Moves coinbase outputs that reached maturity (for the next block) into their pools. */
  promoteMature(): void {
    if (this.immature.length === 0) return;
    const keep: Coin[] = [];
    for (const c of this.immature) {
      if (this.spendable(c)) this.poolAdd(c);
      else keep.push(c);
    }
    this.immature = keep;
  }

  /** True when every input of the entry is an unspent, mature coin of the view. */
  canApply(e: TxEntry): boolean {
    const seen = new Set<Coin>();
    for (const c of e.spent) {
      if (this.coin(c.txid, c.vout) !== c || !this.spendable(c) || seen.has(c)) return false;
      seen.add(c);
    }
    return true;
  }

  /** Applies an entry to the view: spends its inputs, creates its outputs. */
  apply(e: TxEntry, height: number): void {
    for (const c of e.spent) this.removeCoin(c);
    for (const c of e.created) {
      c.height = height;
      c.slot = -1;
      this.addCoin(c);
    }
  }

  /** Reverts apply(); the entry's outputs must be unspent. */
  unapply(e: TxEntry): void {
    for (let i = e.created.length - 1; i >= 0; i--) this.removeCoin(e.created[i] as Coin);
    for (let i = e.spent.length - 1; i >= 0; i--) {
      const c = e.spent[i] as Coin;
      c.slot = -1;
      this.addCoin(c);
    }
  }

  /** Adds an already-applied entry to the mempool. */
  pushMempool(e: TxEntry): void {
    this.mempool.push(e);
    this.mempoolIndex.set(e.txid, e);
  }

  /** Validates and applies an entry, adding it to the mempool; false if an input is missing or immature. */
  accept(e: TxEntry): boolean {
    if (!this.canApply(e)) return false;
    this.apply(e, -1);
    this.pushMempool(e);
    return true;
  }

  /** Reverts the whole mempool from the view and returns its entries in their original order. */
  drainMempool(): TxEntry[] {
    const out = this.mempool.splice(0);
    for (let i = out.length - 1; i >= 0; i--) this.unapply(out[i] as TxEntry);
    this.mempoolIndex.clear();
    return out;
  }

  /** Appends a block to the best chain: entries[0] is its coinbase, the rest are mempool entries already applied. */
  connect(block: StoredBlock, entries: TxEntry[]): void {
    this.blocks.set(block.hash, block);
    if (block.seq === this.all.length) this.all.push(block);
    this.best.push(block);
    const mined = new Set<TxEntry>();
    entries.forEach((e, i) => {
      if (e.coinbase) this.apply(e, block.height);
      else {
        mined.add(e);
        this.mempoolIndex.delete(e.txid);
        for (const c of e.created) c.height = block.height;
      }
      this.txIndex.set(e.txid, block.seq * 65536 + i);
    });
    if (mined.size > 0) {
      const rest = this.mempool.filter((e) => !mined.has(e));
      this.mempool.splice(0, this.mempool.length, ...rest);
    }
    block.entries = entries;
    const old = this.best[block.height - UNDO_WINDOW];
    if (old) old.entries = undefined;
    this.promoteMature();
  }

  /** Removes the tip from the best chain (the mempool must be drained first); returns its entries. */
  disconnectTip(): TxEntry[] {
    const block = this.best[this.best.length - 1];
    if (!block?.entries) throw new Error('no undo data for the tip');
    if (this.mempool.length > 0) throw new Error('drain the mempool before disconnecting');
    const entries = block.entries;
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i] as TxEntry;
      this.unapply(e);
      this.txIndex.delete(e.txid);
    }
    this.best.pop();
    block.entries = undefined;
    return entries;
  }

  /** Locates a best-chain tx. */
  locate(txid: string): { block: StoredBlock; index: number } | undefined {
    const v = this.txIndex.get(txid);
    if (v === undefined) return undefined;
    const block = this.all[Math.floor(v / 65536)];
    return block ? { block, index: v % 65536 } : undefined;
  }
}
