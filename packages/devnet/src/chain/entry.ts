import { encodeTx, type Tx } from '@explorer/chain';
import type { Coin, TxEntry } from './state.js';

/** An output of a tx being built; key set when the output is wallet-spendable (becomes a Coin). */
export interface PlannedOutput {
  value: number;
  script: Buffer;
  key?: number;
  pool?: number;
}

/** Serializes a tx and wraps it with the bookkeeping the chain state needs. */
export function makeEntry(
  tx: Tx,
  spent: Coin[],
  planned: PlannedOutput[],
  opts: { fee: number; time: number; height: number; coinbase: boolean; isBurn: (s: Buffer) => boolean },
): TxEntry {
  const enc = encodeTx(tx);
  const created: Coin[] = [];
  let outValue = 0;
  let outCount = 0;
  let opReturnValue = 0;
  let burnValue = 0;
  planned.forEach((o, vout) => {
    if (o.script[0] === 0x6a) {
      opReturnValue += o.value;
      return;
    }
    outValue += o.value;
    outCount++;
    if (opts.isBurn(o.script)) burnValue += o.value;
    if (o.key !== undefined)
      created.push({
        txid: enc.txid,
        vout,
        value: o.value,
        key: o.key,
        height: -1,
        coinbase: opts.coinbase,
        pool: o.pool ?? 0,
        slot: -1,
      });
  });
  let inValue = 0;
  for (const c of spent) inValue += c.value;
  return {
    txid: enc.txid,
    wtxid: enc.wtxid,
    bytes: enc.bytes,
    size: enc.size,
    vsize: enc.vsize,
    weight: enc.weight,
    segwit: enc.hasWitness,
    fee: opts.fee,
    time: opts.time,
    height: opts.height,
    spent,
    created,
    inCount: spent.length,
    inValue,
    outValue,
    outCount,
    opReturnValue,
    burnValue,
    coinbase: opts.coinbase,
  };
}
