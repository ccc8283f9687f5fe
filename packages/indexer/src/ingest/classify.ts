import type { ParsedTx } from './parse.js';

/** The kinds of transaction the API reports. */
export type TxType = 'coinbase' | 'transfer' | 'consolidation' | 'fan-out' | 'burn';

/**
 * Classifies a transaction: `coinbase`; `burn` when it locks value in OP_RETURN or pays a labelled burn
 * address; `consolidation` for ≥ 3 inputs into one spendable output; `fan-out` for ≥ 5 spendable outputs;
 * otherwise `transfer`.
 */
export function classifyTx(tx: ParsedTx, isBurnAddress: (a: string) => boolean): TxType {
  if (tx.isCoinbase) return 'coinbase';
  let spendable = 0;
  for (const o of tx.outputs) {
    if (o.scriptType === 'nulldata') {
      if (o.value > 0) return 'burn';
      continue;
    }
    if (o.address && isBurnAddress(o.address) && o.value > 0) return 'burn';
    spendable++;
  }
  if (tx.inputs.length >= 3 && spendable === 1) return 'consolidation';
  if (spendable >= 5) return 'fan-out';
  return 'transfer';
}

/** The UTC day number (days since 1970-01-01) of a block time. */
export function dayOf(time: number): number {
  return Math.floor(time / 86_400);
}
