import { type DecodedTx, decodeTx } from '@explorer/chain';
import type {
  Store,
  TxDetail,
  TxDetailInput,
  TxFlow,
  TxKey,
  TxWithCounterpartiesRecord,
} from '@explorer/core';
import { feeRate, toInput, toOutput, toTx } from './mappers.js';
import {
  FLOW_LIST_MAX,
  type InputQueryRow,
  type OutputQueryRow,
  type OwnerColumns,
  type SideJson,
  selectInputs,
  selectRecentTxs,
  selectTx,
  selectTxDetails,
  selectTxFlow,
  selectTxOutputs,
  selectTxRaw,
  type TxDetailQueryRow,
} from './queries/txs.js';
import { amountText, type Sql } from './sql.js';

const COUNTERPARTIES_MAX = 10;

/** The transaction a page of its rows was read with; null when the index does not hold it (no row at all). */
const ownerTx = (txid: string, rows: readonly OwnerColumns[]): TxKey | null =>
  rows[0] ? { txid, blockHeight: rows[0].owner_height } : null;

const cmpBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
/** Addresses in code-point order: the same in every locale (and cheaper than a collation). */
const cmpText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const absBig = (a: bigint) => (a < 0n ? -a : a);

/** Distinct addresses of one side, largest value first, capped. */
function side(rows: readonly SideJson[]): { list: string[]; more: boolean } {
  const sorted = [...rows].sort(([a, av], [b, bv]) => cmpBig(BigInt(bv), BigInt(av)) || cmpText(a, b));
  return {
    list: sorted.slice(0, COUNTERPARTIES_MAX).map(([address]) => address),
    more: sorted.length > COUNTERPARTIES_MAX,
  };
}

function counterparties(senders: readonly SideJson[], receivers: readonly SideJson[]) {
  const s = side(senders);
  const r = side(receivers);
  return { senders: s.list, receivers: r.list, moreSenders: s.more, moreReceivers: r.more };
}

/** Per address of a transaction: received, sent and net, largest movement first, with labels. */
function netFlows(senders: readonly SideJson[], receivers: readonly SideJson[]): TxFlow['netFlows'] {
  const net = new Map<string, { label: string | null; received: bigint; sent: bigint }>();
  for (const [address, value, label] of senders)
    net.set(address, { label, received: 0n, sent: BigInt(value) });
  for (const [address, value, label] of receivers) {
    const e = net.get(address);
    if (e) e.received = BigInt(value);
    else net.set(address, { label, received: BigInt(value), sent: 0n });
  }
  return [...net.entries()]
    .map(([address, f]) => ({ address, ...f, net: f.received - f.sent }))
    .sort((a, b) => cmpBig(absBig(b.net), absBig(a.net)) || cmpText(a.address, b.address))
    .slice(0, FLOW_LIST_MAX)
    .map((f) => ({
      address: f.address,
      label: f.label,
      received: String(f.received),
      sent: String(f.sent),
      net: String(f.net),
    }));
}

const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/**
 * The scriptSig and witness of each input, from the bytes a transaction was kept as, or the node's JSON (its
 * `hex`, else each input's `scriptSig`/`coinbase` and `txinwitness`: a transaction the decoder does not read,
 * such as one with Litecoin's MWEB data).
 */
function inputScripts(r: TxDetailQueryRow): { scriptSig: string; witness: string[] }[] {
  let decoded: DecodedTx | null = null;
  const json = (typeof r.raw === 'object' && r.raw !== null ? r.raw : {}) as {
    hex?: unknown;
    vin?: { coinbase?: string; scriptSig?: { hex?: string }; txinwitness?: string[] }[];
  };
  try {
    if (r.raw_bytes) decoded = decodeTx(r.raw_bytes);
    else if (typeof json.hex === 'string') decoded = decodeTx(Buffer.from(json.hex, 'hex'));
  } catch {
    decoded = null;
  }
  if (decoded)
    return decoded.inputs.map((i) => ({ scriptSig: hex(i.scriptSig), witness: i.witness.map(hex) }));
  return (json.vin ?? []).map((i) => ({
    scriptSig: i.coinbase ?? i.scriptSig?.hex ?? '',
    witness: i.txinwitness ?? [],
  }));
}

/** A transaction in full from its row. */
function toTxDetail(r: TxDetailQueryRow): TxDetail {
  const scripts = inputScripts(r);
  const inputs: TxDetailInput[] = (r.inputs ?? []).map(
    ([prevTxid, prevVout, sequence, value, script, address, scriptType], i) => ({
      prevTxid,
      prevVout,
      scriptSig: scripts[i]?.scriptSig ?? '',
      witness: scripts[i]?.witness ?? [],
      sequence: Number(sequence),
      prevout:
        value === null || script === null
          ? null
          : { value, script, address, scriptType: scriptType ?? 'nonstandard' },
    }),
  );
  return {
    tx: toTx(r),
    inputs,
    outputs: (r.outputs ?? []).map(([value, script, address, scriptType]) => ({
      value,
      script,
      address,
      scriptType,
    })),
  };
}

/** The transaction reads of the Store over SQL. createSqlStore includes these. */
export function txStoreMethods(
  sql: Sql,
): Pick<
  Store,
  'listTxs' | 'getTx' | 'getTxFlow' | 'listTxInputs' | 'listTxOutputs' | 'getTxRaw' | 'getTxDetails'
> {
  return {
    async listTxs(page): Promise<TxWithCounterpartiesRecord[]> {
      return (await selectRecentTxs(sql, page)).map((r) => ({
        ...toTx(r),
        counterparties: counterparties(r.senders ?? [], r.receivers ?? []),
      }));
    },
    async getTx(txid) {
      const r = await selectTx(sql, txid);
      return r ? toTx(r) : null;
    },
    async getTxFlow(txid): Promise<TxFlow | null> {
      const r = await selectTxFlow(sql, txid);
      if (!r) return null;
      const senders = r.senders ?? [];
      const receivers = r.receivers ?? [];
      return {
        txid: r.txid,
        blockHeight: r.block_height,
        time: r.block_time,
        type: r.type as TxFlow['type'],
        fee: amountText(r.fee),
        feeRate: feeRate(r.fee, r.vsize),
        valueIn: amountText(r.value_in),
        valueOut: amountText(r.value_out),
        inputs: r.inputs.slice(0, FLOW_LIST_MAX).map(([prevTxid, prevVout, address, value]) => ({
          address,
          value,
          prevTxid,
          prevVout,
        })),
        outputs: r.outputs.slice(0, FLOW_LIST_MAX).map(([vout, address, value, scriptType, spent]) => ({
          address,
          value,
          vout,
          scriptType,
          spent,
        })),
        inputsTruncated: r.inputs.length > FLOW_LIST_MAX,
        outputsTruncated: r.outputs.length > FLOW_LIST_MAX,
        netFlows: netFlows(senders, receivers),
        counterparties: counterparties(senders, receivers),
      };
    },
    async listTxInputs(txid, page) {
      const rows = await selectInputs(sql, txid, page);
      return {
        tx: ownerTx(txid, rows),
        inputs: rows.flatMap((r) => (r.vin == null ? [] : [toInput(r as InputQueryRow)])),
      };
    },
    async listTxOutputs(txid, page) {
      const rows = await selectTxOutputs(sql, txid, page);
      return {
        tx: ownerTx(txid, rows),
        outputs: rows.flatMap((r) => (r.vout == null ? [] : [toOutput(r as OutputQueryRow)])),
      };
    },
    getTxRaw: (txid) => selectTxRaw(sql, txid),
    async getTxDetails(txids) {
      if (txids.length === 0) return [];
      return (await selectTxDetails(sql, txids)).map(toTxDetail);
    },
  };
}
