import {
  type AddressTotalsRow,
  type AddressTxRow,
  type CoreRawRecipe,
  type InputRow,
  type KeptTxJson,
  keepCoreTxJson,
  renderKeptCoreTx,
  type TxRow,
  txNo,
} from '@explorer/db';
import type { Account } from './balances.js';
import { classifyTx } from './classify.js';
import type { ParsedBlock, ParsedTx } from './parse.js';
import type { Prevout } from './utxos.js';

/** What a block's transactions add up to, for its block row. */
export interface BlockSums {
  fees: bigint;
  /** The coinbase's outputs. */
  reward: bigint;
  /** Outputs of the transactions other than the coinbase. */
  valueOut: bigint;
  opReturn: bigint;
  inputCount: number;
  outputCount: number;
}

/** The rows of a batch's transactions, and what they add to each address and block. */
export interface TransactionRows {
  txs: TxRow[];
  inputs: InputRow[];
  addressTxs: AddressTxRow[];
  /** What the batch adds to each address it touches, in order of first touch. */
  addressTotals: AddressTotalsRow[];
  /** One per block. */
  sums: BlockSums[];
}

/** An address's flow in one transaction. */
interface Flow {
  received: bigint;
  sent: bigint;
}

/**
 * Step 3 of a batch: transaction, input and history rows, and the batch's change to each address's totals.
 * `accounts` holds each touched address's id and balance before the batch, and is left holding the balance
 * after.
 */
export function transactionRows(
  blocks: readonly ParsedBlock[],
  prevouts: readonly Prevout[],
  accounts: ReadonlyMap<string, Account>,
  isBurn: (address: string) => boolean,
): TransactionRows {
  const txs: TxRow[] = [];
  const inputs: InputRow[] = [];
  const addressTxs: AddressTxRow[] = [];
  const totals = new Map<string, AddressTotalsRow>();
  const sums: BlockSums[] = [];
  /** The next input's place in `prevouts`. */
  let spent = 0;

  for (const b of blocks) {
    // Seen in this block: the address's last-seen moves here, and a new one is first seen here.
    const seen = (address: string): AddressTotalsRow => {
      let a = totals.get(address);
      if (!a) {
        a = {
          id: accounts.get(address)!.id,
          address,
          balance: 0n,
          received: 0n,
          sent: 0n,
          txCount: 0,
          utxoCount: 0,
          outputCount: 0,
          firstSeenHeight: b.height,
          firstSeenTime: b.time,
          lastSeenHeight: b.height,
          lastSeenTime: b.time,
        };
        totals.set(address, a);
      }
      a.lastSeenHeight = b.height;
      a.lastSeenTime = b.time;
      return a;
    };
    const s: BlockSums = { fees: 0n, reward: 0n, valueOut: 0n, opReturn: 0n, inputCount: 0, outputCount: 0 };
    for (const t of b.txs) {
      const no = txNo(b.height, t.index);
      const flows = new Map<string, Flow>();
      const flow = (address: string): Flow => {
        let f = flows.get(address);
        if (!f) {
          f = { received: 0n, sent: 0n };
          flows.set(address, f);
        }
        return f;
      };
      let valueIn = 0n;
      for (const i of t.inputs) {
        const p = t.isCoinbase || i.prevTxid === null ? undefined : prevouts[spent++];
        const value = p?.value ?? 0n;
        valueIn += value;
        inputs.push({
          txNo: no,
          vin: i.vin,
          prevTxNo: p?.txNo ?? null,
          prevVout: p ? i.prevVout : null,
          sequence: i.sequence,
        });
        if (p?.address) {
          flow(p.address).sent += value;
          seen(p.address).utxoCount -= 1;
        }
      }
      let valueOut = 0n;
      for (const o of t.outputs) {
        valueOut += o.value;
        if (o.scriptType === 'nulldata') s.opReturn += o.value;
        if (o.address) {
          flow(o.address).received += o.value;
          const a = seen(o.address);
          a.utxoCount += 1;
          a.outputCount += 1;
        }
      }
      const fee = t.isCoinbase ? 0n : valueIn - valueOut;
      if (t.isCoinbase) s.reward += valueOut;
      else {
        s.fees += fee;
        s.valueOut += valueOut;
      }
      s.inputCount += t.inputs.length;
      s.outputCount += t.outputs.length;
      for (const [address, f] of flows) {
        const a = totals.get(address)!;
        a.received += f.received;
        a.sent += f.sent;
        a.balance += f.received - f.sent;
        a.txCount += 1;
        const account = accounts.get(address)!;
        account.balance += f.received - f.sent;
        addressTxs.push({
          addressId: account.id,
          txNo: no,
          received: f.received,
          sent: f.sent,
          balance: account.balance,
        });
      }
      txs.push({
        txNo: no,
        txid: t.txid,
        version: t.version,
        locktime: t.locktime,
        size: t.size,
        vsize: t.vsize,
        weight: t.weight,
        inputCount: t.inputs.length,
        outputCount: t.outputs.length,
        valueIn,
        valueOut,
        fee,
        type: classifyTx(t, isBurn),
        ...keptJson(t, fee),
      });
    }
    sums.push(s);
  }
  return { txs, inputs, addressTxs, addressTotals: [...totals.values()], sums };
}

/**
 * How a transaction's JSON is kept: a chain decoded from bytes (Pearl) keeps the bytes alone; a Core transaction
 * keeps its bytes and a recipe where rendering them gives back the node's JSON exactly, else the JSON.
 */
function keptJson(t: ParsedTx, fee: bigint): KeptTxJson {
  if (t.hex !== undefined) return { raw: null, rawBytes: t.hex };
  if (t.kept) {
    if (t.keptFee === null || t.keptFee === undefined || t.keptFee === fee) return t.kept;
    // The node wrote another fee than the one the index computes: its JSON is kept as it wrote it, which the
    // recipe renders exactly with the node's fee (it was compared when the block was decoded).
    const recipe = JSON.parse(t.kept.raw!) as CoreRawRecipe;
    const json = renderKeptCoreTx(recipe, Buffer.from(t.kept.rawBytes!, 'hex'), outputNames(t), t.keptFee);
    return { raw: JSON.stringify(json), rawBytes: null };
  }
  return keepCoreTxJson(t.raw as Record<string, unknown>, outputNames(t), fee);
}

/** A transaction's outputs named as `outputs` and `addresses` will hold them (an empty address is none). */
export function outputNames(t: ParsedTx): { type: string; address: string | null }[] {
  return t.outputs.map((o) => ({ type: o.scriptType, address: o.address || null }));
}
