import { type OutputRow, readPrevouts, type SpendRow, type Sql, txNo } from '@explorer/db';
import { MissingPrevoutError } from './errors.js';
import type { ParsedBlock } from './parse.js';

/** What an input needs of the output it spends. */
export interface Prevout {
  /** The number of the transaction that created the output. */
  txNo: number;
  address: string | null;
  value: bigint;
}

/** A cached output: what spending it needs, and where it sits in the batch that created it. */
interface CachedOutput {
  address: string | null;
  value: bigint;
  /** Its position in its batch's `outputs`. */
  at: number;
}

/** A transaction's outputs in the writer's cache, those still unspent; keyed by its txid. */
interface CachedTx {
  txNo: number;
  /** The batch that created the outputs. */
  seq: number;
  outputs: (CachedOutput | undefined)[];
  /** How many of `outputs` are still there. */
  left: number;
}

/**
 * The writer's cache of recent unspent outputs, by transaction: one entry per txid holds its outputs by vout, so
 * neither a new output nor a spend builds a key of its own. Its size counts outputs.
 */
export class UtxoCache {
  private readonly txs = new Map<string, CachedTx>();
  /** Outputs held. */
  size = 0;

  /** Caches a transaction's outputs, created by batch `seq`. */
  add(txid: string, no: number, seq: number, outputs: (CachedOutput | undefined)[]): void {
    const old = this.txs.get(txid);
    // A txid seen again (Bitcoin's duplicated coinbases, BIP30) replaces the outputs of the first.
    if (old) this.size -= old.left;
    const left = outputs.reduce((n, o) => n + (o ? 1 : 0), 0);
    this.txs.set(txid, { txNo: no, seq, outputs, left });
    this.size += left;
  }

  /** Takes an output out of the cache: what it was, its transaction's number and batch; undefined when not cached. */
  take(txid: string, vout: number): { output: CachedOutput; txNo: number; seq: number } | undefined {
    const tx = this.txs.get(txid);
    const output = tx?.outputs[vout];
    if (!tx || !output) return undefined;
    tx.outputs[vout] = undefined;
    tx.left -= 1;
    this.size -= 1;
    if (tx.left === 0) this.txs.delete(txid);
    return { output, txNo: tx.txNo, seq: tx.seq };
  }

  /** Drops the oldest transactions of committed batches until at most `max` outputs are left (80 % of it). */
  trim(max: number, committedSeq: number): void {
    if (this.size <= max) return;
    const target = Math.floor(max * 0.8);
    for (const [txid, tx] of this.txs) {
      if (this.size <= target) break;
      if (tx.seq > committedSeq) continue;
      this.txs.delete(txid);
      this.size -= tx.left;
    }
  }
}

/** The outputs a batch creates, the spends it must make, and what each of its inputs spends. */
export interface OutputsAndSpends {
  /** The batch's outputs, their address ids still unset (see `addresses`). */
  outputs: OutputRow[];
  /** The address of each output, by position in `outputs`. */
  addresses: (string | null)[];
  /** Whether each output is still unspent at the end of the batch, by position in `outputs`. */
  unspent: boolean[];
  /** Spends of outputs of earlier batches; those of the batch's own outputs never reach the database. */
  spends: SpendRow[];
  /**
   * The output each input spends, in the batch's order of inputs (blocks, transactions, inputs; a coinbase's
   * inputs, which spend nothing, left out).
   */
  prevouts: Prevout[];
}

/**
 * Step 1 of a batch: its outputs and spends, in chain order. A spend of a cached output takes it from the
 * cache, and one of this batch's own outputs is left out of the unspent ones rather than taken out later; a
 * spend of anything else is made in the database on write, and what it spends is read from the database now.
 */
export async function collectOutputs(
  reader: Sql,
  blocks: readonly ParsedBlock[],
  utxos: UtxoCache,
  seq: number,
): Promise<OutputsAndSpends> {
  const outputs: OutputRow[] = [];
  const addresses: (string | null)[] = [];
  const unspent: boolean[] = [];
  const spends: SpendRow[] = [];
  const prevouts: Prevout[] = [];
  const misses: { txid: string; vout: number; spender: string; vin: number; height: number; at: number }[] =
    [];
  for (const b of blocks) {
    for (const t of b.txs) {
      if (!t.isCoinbase) {
        for (const i of t.inputs) {
          if (i.prevTxid === null) continue;
          const vout = i.prevVout ?? 0;
          const cached = utxos.take(i.prevTxid, vout);
          if (cached) {
            const o = cached.output;
            prevouts.push({ txNo: cached.txNo, address: o.address, value: o.value });
            if (cached.seq === seq) unspent[o.at] = false;
            else spends.push({ prevTxNo: cached.txNo, prevVout: vout, height: b.height });
          } else {
            misses.push({
              txid: i.prevTxid,
              vout,
              spender: t.txid,
              vin: i.vin,
              height: b.height,
              at: prevouts.length,
            });
            prevouts.push(undefined as unknown as Prevout);
          }
        }
      }
      const no = txNo(b.height, t.index);
      const cachedOutputs: (CachedOutput | undefined)[] = [];
      for (const o of t.outputs) {
        cachedOutputs[o.vout] = { address: o.address, value: o.value, at: outputs.length };
        outputs.push({
          txNo: no,
          vout: o.vout,
          addressId: null,
          value: o.value,
          scriptType: o.scriptType,
          script: o.scriptHex,
        });
        addresses.push(o.address);
        unspent.push(true);
      }
      utxos.add(t.txid, no, seq, cachedOutputs);
    }
  }
  if (misses.length > 0) {
    const found = await readPrevouts(reader, misses);
    misses.forEach((m, k) => {
      const p = found[k];
      if (!p || p.spent) {
        throw new MissingPrevoutError(
          `input ${m.spender}:${m.vin} spends ${m.txid}:${m.vout}, which is not an unspent output of the index`,
        );
      }
      prevouts[m.at] = p;
      spends.push({ prevTxNo: p.txNo, prevVout: m.vout, height: m.height });
    });
  }
  return { outputs, addresses, unspent, spends, prevouts };
}
