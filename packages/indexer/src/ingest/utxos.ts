import { type OutputRow, readPrevouts, type SpendRow, type Sql } from '@explorer/db';
import { MissingPrevoutError } from './errors.js';
import type { ParsedBlock } from './parse.js';

/** What an input needs of the output it spends. */
export interface Prevout {
  address: string | null;
  value: bigint;
}

/** An unspent output in the writer's cache. */
export interface CachedUtxo extends Prevout {
  /** The batch that created it. */
  seq: number;
  /** The output's row while its own batch is being prepared, so a spend in that batch writes it spent. */
  row: OutputRow | null;
}

/** The outputs a batch creates, the spends it must mark, and what each of its inputs spends. */
export interface OutputsAndSpends {
  outputs: OutputRow[];
  /** Spends of outputs of earlier batches; those of the batch's own outputs are in their rows. */
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
 * cache, and one of this batch's own outputs is written spent rather than marked later; a spend of anything
 * else is marked in the database on write, and what it spends is read from the database now.
 */
export async function collectOutputs(
  reader: Sql,
  blocks: readonly ParsedBlock[],
  utxos: Map<string, CachedUtxo>,
  seq: number,
): Promise<OutputsAndSpends> {
  const outputs: OutputRow[] = [];
  const spends: SpendRow[] = [];
  const prevouts = new Map<string, Prevout>();
  const misses: { txid: string; vout: number; spender: string }[] = [];
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
            if (cached.seq === seq && cached.row) {
              cached.row.spentTxid = t.txid;
              cached.row.spentVin = i.vin;
              cached.row.spentHeight = b.height;
              continue;
            }
          } else misses.push({ txid: i.prevTxid, vout, spender });
          spends.push({ prevTxid: i.prevTxid, prevVout: vout, txid: t.txid, vin: i.vin, height: b.height });
        }
      }
      for (const o of t.outputs) {
        const row: OutputRow = {
          txid: t.txid,
          vout: o.vout,
          blockHeight: b.height,
          blockIndex: t.index,
          address: o.address,
          value: o.value,
          scriptType: o.scriptType,
          scriptHex: o.scriptHex,
          isCoinbase: t.isCoinbase,
          spentTxid: null,
          spentVin: null,
          spentHeight: null,
        };
        outputs.push(row);
        utxos.set(outpointKey(t.txid, o.vout), { address: o.address, value: o.value, seq, row });
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
    });
  }
  // The batch's rows are final now: a later batch spending one of them marks it in the database.
  for (const o of outputs) {
    const c = utxos.get(outpointKey(o.txid, o.vout));
    if (c) c.row = null;
  }
  return { outputs, spends, prevouts };
}
