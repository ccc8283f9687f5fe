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

/** An unspent output in the writer's cache. */
export interface CachedUtxo extends Prevout {
  /** The batch that created it. */
  seq: number;
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
  /** The output each input spends, by the input's `outpointKey(txid, vin)`. */
  prevouts: Map<string, Prevout>;
}

/** The cache key of an outpoint, and the prevout key of an input: `txid:n`. */
export function outpointKey(txid: string, n: number): string {
  return `${txid}:${n}`;
}

/**
 * Step 1 of a batch: its outputs and spends, in chain order. A spend of a cached output takes it from the
 * cache, and one of this batch's own outputs is left out of the unspent ones rather than taken out later; a
 * spend of anything else is made in the database on write, and what it spends is read from the database now.
 */
export async function collectOutputs(
  reader: Sql,
  blocks: readonly ParsedBlock[],
  utxos: Map<string, CachedUtxo>,
  seq: number,
): Promise<OutputsAndSpends> {
  const outputs: OutputRow[] = [];
  const addresses: (string | null)[] = [];
  const unspent: boolean[] = [];
  /** Position in `outputs` of the batch's own outputs, by outpoint. */
  const own = new Map<string, number>();
  const spends: SpendRow[] = [];
  const prevouts = new Map<string, Prevout>();
  const misses: { txid: string; vout: number; spender: string; height: number }[] = [];
  for (const b of blocks) {
    for (const t of b.txs) {
      if (!t.isCoinbase) {
        for (const i of t.inputs) {
          if (i.prevTxid === null) continue;
          const vout = i.prevVout ?? 0;
          const key = outpointKey(i.prevTxid, vout);
          const spender = outpointKey(t.txid, i.vin);
          const cached = utxos.get(key);
          if (cached) {
            utxos.delete(key);
            prevouts.set(spender, cached);
            const at = cached.seq === seq ? own.get(key) : undefined;
            if (at !== undefined) unspent[at] = false;
            else spends.push({ prevTxNo: cached.txNo, prevVout: vout, height: b.height });
          } else misses.push({ txid: i.prevTxid, vout, spender, height: b.height });
        }
      }
      const no = txNo(b.height, t.index);
      for (const o of t.outputs) {
        const key = outpointKey(t.txid, o.vout);
        own.set(key, outputs.length);
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
        utxos.set(key, { txNo: no, address: o.address, value: o.value, seq });
      }
    }
  }
  if (misses.length > 0) {
    const found = await readPrevouts(reader, misses);
    misses.forEach((m, k) => {
      const p = found[k];
      if (!p || p.spent) {
        throw new MissingPrevoutError(
          `input ${m.spender} spends ${m.txid}:${m.vout}, which is not an unspent output of the index`,
        );
      }
      prevouts.set(m.spender, p);
      spends.push({ prevTxNo: p.txNo, prevVout: m.vout, height: m.height });
    });
  }
  return { outputs, addresses, unspent, spends, prevouts };
}
