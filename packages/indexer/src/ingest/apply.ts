import {
  type BatchRows,
  deleteMinedMempoolAddressTxs,
  lockTip,
  readTipState,
  type Sql,
  setTip,
  type TipState,
  type UtxoRow,
  writeDerived,
} from '@explorer/db';
import type { Definitions } from '../pools.js';
import { balancesBefore, type CachedBalance, rememberBalances } from './balances.js';
import { blockRows } from './block-rows.js';
import { ChainMismatchError } from './errors.js';
import type { ParsedBlock } from './parse.js';
import { rollups } from './rollups.js';
import { transactionRows } from './transactions.js';
import { collectOutputs, UtxoCache } from './utxos.js';

/** Everything one batch writes, computed before its transaction opens. */
export interface PreparedBatch {
  /** Position of the batch in its pipeline; caches keep what uncommitted batches touched. */
  seq: number;
  /** The tip the batch extends: its transaction refuses to run on any other. */
  parent: { height: number; hash: string | null };
  last: { height: number; hash: string };
  txCount: number;
  /** The batch's rows of every derived table. */
  rows: BatchRows;
}

/** Sizes of the writer's caches. */
export interface IngestCacheOptions {
  /** Unspent outputs kept in memory so spends of recent outputs need no database read (default 300,000). */
  maxUtxos?: number;
  /** Address balances kept in memory (default 200,000). */
  maxBalances?: number;
}

/**
 * The writer's view of the chain ahead of the database: the tip the next batch extends, the unspent outputs
 * and balances recent batches made. Batch N+1 is prepared from it while batch N is being written; anything
 * not cached was committed earlier and is read from the database. An entry is only evicted once the batch
 * that last touched it has committed. After any failure the view is discarded, never repaired.
 */
export class IngestState {
  private tip: TipState | null = null;
  private readonly utxos = new UtxoCache();
  private readonly balances = new Map<string, CachedBalance>();
  private nextSeq = 1;
  private committedSeq = 0;
  private readonly maxUtxos: number;
  private readonly maxBalances: number;

  constructor(opts: IngestCacheOptions = {}) {
    this.maxUtxos = opts.maxUtxos ?? 300_000;
    this.maxBalances = opts.maxBalances ?? 200_000;
  }

  /** Records that a batch committed, and trims the caches to their sizes. */
  committed(seq: number): void {
    this.committedSeq = Math.max(this.committedSeq, seq);
    this.utxos.trim(this.maxUtxos, this.committedSeq);
    trim(this.balances, this.maxBalances, this.committedSeq);
  }

  /**
   * Computes every row of a batch of consecutive blocks, step by step. `reader` answers for what is not
   * cached; it must see every committed batch (the pool, or the writing transaction itself).
   */
  async prepare(reader: Sql, blocks: ParsedBlock[], defs: Definitions): Promise<PreparedBatch> {
    this.tip ??= await readTipState(reader);
    const parent = this.tip;
    checkLinks(parent, blocks);
    const seq = this.nextSeq++;

    const { outputs, addresses, unspent, spends, prevouts } = await collectOutputs(
      reader,
      blocks,
      this.utxos,
      seq,
    );
    const accounts = await balancesBefore(reader, this.balances, [
      ...addresses,
      ...prevouts.map((p) => p.address),
    ]);
    const utxos: UtxoRow[] = [];
    outputs.forEach((o, k) => {
      const address = addresses[k];
      if (address) o.addressId = accounts.get(address)!.id;
      if (unspent[k]) utxos.push({ txNo: o.txNo, vout: o.vout, addressId: o.addressId });
    });
    const txRows = transactionRows(blocks, prevouts, accounts, defs.isBurn);
    const chain = blockRows(parent, blocks, txRows.sums, defs);
    const totals = rollups(chain.blocks, chain.certificates);

    rememberBalances(this.balances, txRows.addressTotals, accounts, seq);
    this.tip = chain.tip;
    return {
      seq,
      parent: { height: parent.height, hash: parent.hash },
      last: { height: chain.tip.height, hash: chain.tip.hash! },
      txCount: txRows.txs.length,
      rows: {
        outputs,
        utxos,
        spends,
        txs: txRows.txs,
        inputs: txRows.inputs,
        addressTxs: txRows.addressTxs,
        addressTotals: txRows.addressTotals,
        blocks: chain.blocks,
        certificates: chain.certificates,
        ...totals,
      },
    };
  }
}

/** Refuses blocks that do not extend `tip` one after another. */
function checkLinks(tip: TipState, blocks: readonly ParsedBlock[]): void {
  const first = blocks[0];
  if (!first) throw new Error('prepare needs at least one block');
  if (first.height !== tip.height + 1 || (tip.hash !== null && first.prevHash !== tip.hash)) {
    throw new ChainMismatchError(
      `block ${first.height} (${first.hash}) does not extend the indexed tip ${tip.height} (${tip.hash ?? 'none'})`,
    );
  }
  for (let i = 1; i < blocks.length; i++) {
    const b = blocks[i]!;
    const prev = blocks[i - 1]!;
    if (b.height !== prev.height + 1 || b.prevHash !== prev.hash) {
      throw new ChainMismatchError(
        `block ${b.height} does not link to block ${prev.height} in the same batch`,
      );
    }
  }
}

/** Drops the oldest entries of committed batches until the map is back under `max`. */
function trim<V extends { seq: number }>(map: Map<string, V>, max: number, committedSeq: number): void {
  if (map.size <= max) return;
  const target = Math.floor(max * 0.8);
  for (const [key, v] of map) {
    if (map.size <= target) break;
    if (v.seq <= committedSeq) map.delete(key);
  }
}

/**
 * Writes a prepared batch in the caller's transaction: either all of it lands with the new tip, or none of
 * it does. The tip is locked and must still be the batch's parent. The mempool rows of the batch's
 * transactions are deleted with it.
 */
export async function writePrepared(tx: Sql, p: PreparedBatch): Promise<void> {
  const tip = await lockTip(tx);
  if (tip.height !== p.parent.height || tip.hash !== p.parent.hash) {
    throw new ChainMismatchError(
      `the indexed tip moved to ${tip.height} (${tip.hash ?? 'none'}) while a batch extending ${p.parent.height} was prepared`,
    );
  }
  await writeDerived(tx, p.rows);
  // The batch's transactions leave addresses' unconfirmed activity with the block that confirms them.
  await deleteMinedMempoolAddressTxs(tx, p.parent.height);
  await setTip(tx, p.last.height, p.last.hash);
}

/**
 * Writes consecutive blocks that extend the indexed tip, with everything derived from them, in the caller's
 * transaction: either all of it lands with the new tip, or none of it does.
 */
export async function applyBlocks(tx: Sql, blocks: ParsedBlock[], defs: Definitions): Promise<void> {
  if (blocks.length === 0) return;
  const prepared = await new IngestState().prepare(tx, blocks, defs);
  await writePrepared(tx, prepared);
}
