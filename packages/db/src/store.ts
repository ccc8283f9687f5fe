import { certificateStatus } from '@explorer/chain';
import type {
  AddressSummary,
  Certificate,
  FlowSummary,
  IndexerStateInfo,
  Input,
  Output,
  Store,
  TxFlow,
  TxRecord,
  TxWithCounterpartiesRecord,
  UtxoRecord,
} from '@explorer/core';
import { chainIdentity, toBlock } from './mappers.js';
import {
  selectAddresses,
  selectMultiAddressTxs,
  selectMultiAddressUtxos,
  selectWalletTotals,
} from './queries/address-lists.js';
import {
  type AddressQueryRow,
  selectAddress,
  selectAddressFlows,
  selectAddressTxs,
  selectAddressUtxos,
  selectBalanceHistory,
  selectFlowWindows,
  selectLabel,
  type UtxoQueryRow,
} from './queries/addresses.js';
import { selectBlock, selectBlockRaw, selectBlocks, selectCertificate } from './queries/blocks.js';
import { readMempoolState, recentBlockFloors } from './queries/mempool-state.js';
import { selectAddressMempoolTotals, selectAddressMempoolTxs } from './queries/mempool-txs.js';
import { blockHashesAt, readIndexerState } from './queries/state.js';
import {
  type InputQueryRow,
  type OutputQueryRow,
  type SideRow,
  selectBlockOutputs,
  selectBlockTxs,
  selectCoinbaseOutputs,
  selectFlowLabels,
  selectInputs,
  selectRecentTxs,
  selectSides,
  selectTx,
  selectTxOutputs,
  selectTxRaw,
  type TxQueryRow,
} from './queries/txs.js';
import { amountText, type Int8, type Sql } from './sql.js';
import { marketStoreMethods } from './store-market.js';
import { miningStoreMethods } from './store-mining.js';
import { proofStoreMethods } from './store-proofs.js';
import { createSearchStore } from './store-search.js';

/** Age past which a sync's progress report counts as left behind: many report intervals (5 s), and batches. */
const STALE_PROGRESS_MS = 120_000;

const FLOW_LIST_MAX = 250;
const COUNTERPARTIES_MAX = 10;

/** Fee per virtual byte with two decimals. */
export const feeRate = (fee: Int8, vsize: number) =>
  vsize > 0 ? Math.round((Number(fee) / vsize) * 100) / 100 : 0;

const iso = (v: Date | string | null) =>
  v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString();
const dateOfDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

function toTx(r: TxQueryRow): TxRecord {
  return {
    txid: r.txid,
    blockHeight: r.block_height,
    blockHash: r.block_hash,
    blockIndex: r.block_index,
    time: r.block_time,
    size: r.size,
    vsize: r.vsize,
    weight: r.weight,
    version: r.version,
    locktime: r.locktime,
    inputCount: r.input_count,
    outputCount: r.output_count,
    valueIn: amountText(r.value_in),
    valueOut: amountText(r.value_out),
    fee: amountText(r.fee),
    feeRate: feeRate(r.fee, r.vsize),
    isCoinbase: r.is_coinbase,
    type: r.type as TxRecord['type'],
  };
}

function toOutput(r: OutputQueryRow): Output {
  return {
    txid: r.txid,
    vout: r.vout,
    blockHeight: r.block_height,
    blockIndex: r.block_index,
    address: r.address,
    label: r.label,
    value: amountText(r.value),
    scriptType: r.script_type,
    scriptHex: r.script_hex,
    isCoinbase: r.is_coinbase,
    spent: r.spent_txid !== null,
    spentBy:
      r.spent_txid === null
        ? null
        : { txid: r.spent_txid, vin: r.spent_vin ?? 0, height: r.spent_height ?? 0 },
  };
}

function toInput(r: InputQueryRow): Input {
  return {
    txid: r.txid,
    vin: r.vin,
    isCoinbase: r.prev_txid === null,
    prevTxid: r.prev_txid,
    prevVout: r.prev_vout,
    address: r.address,
    label: r.label,
    value: amountText(r.value),
    sequence: r.sequence,
  };
}

/** An address's summary from its totals (null: the index has not seen it) and its label (one address or many). */
function toAddressSummary(
  address: string,
  a: Omit<AddressQueryRow, 'address'> | null,
  label: AddressSummary['label'],
): AddressSummary {
  return {
    address,
    seen: a !== null,
    label,
    balance: amountText(a?.balance),
    received: amountText(a?.received),
    sent: amountText(a?.sent),
    txCount: a?.tx_count ?? 0,
    utxoCount: a?.utxo_count ?? 0,
    firstSeen: a ? { height: a.first_seen_height, time: a.first_seen_time } : null,
    lastSeen: a ? { height: a.last_seen_height, time: a.last_seen_time } : null,
  };
}

/** An unspent output as the API lists it (one address's or many's). */
function toUtxo(r: UtxoQueryRow): UtxoRecord {
  return {
    txid: r.txid,
    vout: r.vout,
    value: amountText(r.value),
    blockHeight: r.block_height,
    blockHash: r.block_hash,
    blockIndex: r.block_index,
    time: r.time,
    scriptType: r.script_type,
    scriptHex: r.script_hex,
    isCoinbase: r.is_coinbase,
  };
}

const cmpBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const absBig = (a: bigint) => (a < 0n ? -a : a);

/** Distinct addresses of one side, largest value first, capped. */
function side(rows: SideRow[]): { list: string[]; more: boolean } {
  const sorted = [...rows].sort(
    (a, b) => cmpBig(BigInt(b.value), BigInt(a.value)) || a.address.localeCompare(b.address),
  );
  return {
    list: sorted.slice(0, COUNTERPARTIES_MAX).map((r) => r.address),
    more: sorted.length > COUNTERPARTIES_MAX,
  };
}

function counterparties(inputs: SideRow[], outputs: SideRow[]) {
  const s = side(inputs);
  const r = side(outputs);
  return { senders: s.list, receivers: r.list, moreSenders: s.more, moreReceivers: r.more };
}

function groupByTx(rows: SideRow[]): Map<string, SideRow[]> {
  const m = new Map<string, SideRow[]>();
  for (const r of rows) {
    const list = m.get(r.txid);
    if (list) list.push(r);
    else m.set(r.txid, [r]);
  }
  return m;
}

/**
 * The Store the API reads, over any Sql (PGlite or PostgreSQL).
 * @example const api = createExplorerApi({ store: createSqlStore(sql), routes: v1Routes })
 */
export function createSqlStore(sql: Sql): Store {
  return {
    ...miningStoreMethods(sql),
    ...proofStoreMethods(sql),
    ...createSearchStore(sql),
    ...marketStoreMethods(sql),
    async tip() {
      const [r] = await sql.query<{
        tip_height: number;
        tip_hash: string | null;
        tx_tip_height: number;
        time: number | null;
      }>(
        `SELECT s.tip_height, s.tip_hash, s.tx_tip_height, b.time
         FROM indexer_state s LEFT JOIN blocks b ON b.height = s.tip_height WHERE s.id = 1`,
        [],
        'state.tip',
      );
      return {
        height: r?.tip_height ?? -1,
        hash: r?.tip_hash ?? null,
        txHeight: r?.tx_tip_height ?? -1,
        time: r?.time ?? null,
      };
    },
    async blockHashAt(height) {
      return (await blockHashesAt(sql, [height])).get(height) ?? null;
    },
    async ping() {
      await sql.query('SELECT 1', [], 'state.ping');
    },
    mempoolState: () => readMempoolState(sql),
    recentBlockFloors: (blocks) => recentBlockFloors(sql, blocks),
    async indexerState(): Promise<IndexerStateInfo> {
      const s = await readIndexerState(sql);
      return {
        state: s.status,
        error: s.error,
        tipHeight: s.tip_height,
        tipHash: s.tip_hash,
        txTipHeight: s.tx_tip_height,
        nodeHeight: s.node_height,
        reorgs: s.reorgs,
        lastReorgDepth: s.last_reorg_depth,
        lastReorgAt: iso(s.last_reorg_at),
        updatedAt: iso(s.updated_at) ?? new Date(0).toISOString(),
        chain: chainIdentity(s.chain),
        // A report left by a sync that is no longer running is not shown: the state moved on, or the report
        // is older than any running sync lets it get (a killed indexer leaves its row saying `syncing`).
        progress:
          s.status === 'syncing' &&
          s.sync_progress &&
          Date.now() - Date.parse(s.sync_progress.updatedAt) <= STALE_PROGRESS_MS
            ? s.sync_progress
            : null,
      };
    },

    async getBlock(ref) {
      const r = await selectBlock(sql, ref);
      return r ? toBlock(r) : null;
    },
    async listBlocks(page) {
      return (await selectBlocks(sql, page)).map(toBlock);
    },
    async getCertificate(ref, includeProof): Promise<Certificate | null> {
      const r = await selectCertificate(sql, ref, includeProof);
      if (!r) return null;
      let configNote: string | null = null;
      if (!r.config) {
        if (!r.readable) configNote = 'the certificate bytes did not decode';
        else if (r.config_error) configNote = r.config_error;
        else if (r.version === 4)
          configNote = 'the layout of version 4 public data is not certain: served as hex only';
        else if (r.version === 5) configNote = 'version 5 certificates carry no public data';
      }
      return {
        blockHash: r.block_hash,
        height: r.height,
        version: r.version,
        readable: r.readable,
        error: r.error,
        layout: r.layout,
        size: r.size,
        proofCommitment: r.proof_commitment,
        computedCommitment: r.computed_commitment,
        commitmentValid: r.readable ? r.computed_commitment === r.proof_commitment : null,
        namedBlockHash: r.named_hash,
        blockHashMatches: r.readable ? r.named_hash === r.block_hash : null,
        status: certificateStatus({
          readable: r.readable,
          binds: r.readable && r.problems.length === 0,
          proofCommitment: r.proof_commitment,
        }),
        problems: r.problems,
        publicData: r.public_data,
        publicDataSize: r.public_data_size,
        isMoE: r.is_moe,
        config: (r.config as Certificate['config']) ?? null,
        configNote,
        proofSize: r.proof_size,
        ancestorHeaderCount: r.ancestor_hashes.length,
        ancestorHashes: r.ancestor_hashes,
        proofAvailable: r.proof_available,
        ...(includeProof && r.proof_hex !== null ? { proof: r.proof_hex } : {}),
        raw: r.raw_hex,
      };
    },
    async coinbaseOutputs(height) {
      return (await selectCoinbaseOutputs(sql, height)).map(toOutput);
    },
    async listBlockOutputs(height, page) {
      return (await selectBlockOutputs(sql, height, page)).map(toOutput);
    },
    getBlockRaw: (ref) => selectBlockRaw(sql, ref),
    async listBlockTxs(height, page) {
      return (await selectBlockTxs(sql, height, page)).map(toTx);
    },

    async listTxs(page): Promise<TxWithCounterpartiesRecord[]> {
      const rows = await selectRecentTxs(sql, page);
      const sides = await selectSides(
        sql,
        rows.map((r) => r.tx_no),
      );
      const ins = groupByTx(sides.inputs);
      const outs = groupByTx(sides.outputs);
      return rows.map((r) => ({
        ...toTx(r),
        counterparties: counterparties(ins.get(r.txid) ?? [], outs.get(r.txid) ?? []),
      }));
    },
    async getTx(txid) {
      const r = await selectTx(sql, txid);
      return r ? toTx(r) : null;
    },
    async getTxFlow(txid): Promise<TxFlow | null> {
      const r = await selectTx(sql, txid);
      if (!r) return null;
      const firstPage = { limit: FLOW_LIST_MAX, after: null, offset: 0 };
      const tx = { txNo: r.tx_no };
      const [inputs, outputs, sides, labels] = await Promise.all([
        selectInputs(sql, tx, firstPage),
        selectTxOutputs(sql, tx, firstPage),
        selectSides(sql, [r.tx_no]),
        selectFlowLabels(sql, r.tx_no),
      ]);
      const labelOf = new Map(labels.map((l) => [l.address, l.label]));
      const net = new Map<string, { received: bigint; sent: bigint }>();
      for (const s of sides.inputs) net.set(s.address, { received: 0n, sent: BigInt(s.value) });
      for (const s of sides.outputs) {
        const e = net.get(s.address);
        if (e) e.received = BigInt(s.value);
        else net.set(s.address, { received: BigInt(s.value), sent: 0n });
      }
      const netFlows = [...net.entries()]
        .map(([address, f]) => ({
          address,
          label: labelOf.get(address) ?? null,
          ...f,
          net: f.received - f.sent,
        }))
        .sort((a, b) => cmpBig(absBig(b.net), absBig(a.net)) || a.address.localeCompare(b.address))
        .slice(0, FLOW_LIST_MAX)
        .map((f) => ({ ...f, received: String(f.received), sent: String(f.sent), net: String(f.net) }));
      return {
        txid: r.txid,
        blockHeight: r.block_height,
        time: r.block_time,
        type: r.type as TxFlow['type'],
        fee: amountText(r.fee),
        feeRate: feeRate(r.fee, r.vsize),
        valueIn: amountText(r.value_in),
        valueOut: amountText(r.value_out),
        inputs: inputs.slice(0, FLOW_LIST_MAX).map((i) => ({
          address: i.address,
          value: amountText(i.value),
          prevTxid: i.prev_txid,
          prevVout: i.prev_vout,
        })),
        outputs: outputs.slice(0, FLOW_LIST_MAX).map((o) => ({
          address: o.address,
          value: amountText(o.value),
          vout: o.vout,
          scriptType: o.script_type,
          spent: o.spent_txid !== null,
        })),
        inputsTruncated: inputs.length > FLOW_LIST_MAX,
        outputsTruncated: outputs.length > FLOW_LIST_MAX,
        netFlows,
        counterparties: counterparties(sides.inputs, sides.outputs),
      };
    },
    async listTxInputs(txid, page) {
      return (await selectInputs(sql, { txid }, page)).map(toInput);
    },
    async listTxOutputs(txid, page) {
      return (await selectTxOutputs(sql, { txid }, page)).map(toOutput);
    },
    getTxRaw: (txid) => selectTxRaw(sql, txid),

    async getAddress(address): Promise<AddressSummary> {
      const [a, label] = await Promise.all([selectAddress(sql, address), selectLabel(sql, address)]);
      return toAddressSummary(address, a, label);
    },
    async listAddressMempoolTxs(address, page) {
      return (await selectAddressMempoolTxs(sql, address, page)).map((r) => ({
        txid: r.txid,
        firstSeen: Number(r.first_seen),
        received: amountText(r.received),
        sent: amountText(r.sent),
        net: String(BigInt(r.received) - BigInt(r.sent)),
        fee: amountText(r.fee),
        vsize: r.vsize,
        feeRate: feeRate(r.fee, r.vsize),
      }));
    },
    async addressMempool(address) {
      const r = await selectAddressMempoolTotals(sql, address);
      const balance = BigInt(r.balance);
      const delta = BigInt(r.received) - BigInt(r.sent);
      return {
        address,
        balance: balance.toString(),
        mempoolReceived: amountText(r.received),
        mempoolSent: amountText(r.sent),
        mempoolDelta: delta.toString(),
        balanceWithMempool: (balance + delta).toString(),
        mempoolTxCount: r.tx_count,
        updatedAt: iso(r.taken_at),
      };
    },
    async listAddressTxs(address, page) {
      return (await selectAddressTxs(sql, address, page)).map((r) => ({
        ...toTx(r),
        received: amountText(r.received),
        sent: amountText(r.sent),
        net: String(BigInt(r.received) - BigInt(r.sent)),
        balanceAfter: amountText(r.balance),
      }));
    },
    async listAddressUtxos(address, page) {
      return (await selectAddressUtxos(sql, address, page)).map(toUtxo);
    },
    async balanceHistory(address) {
      return (await selectBalanceHistory(sql, address)).map((r) => ({
        date: dateOfDay(r.day),
        height: r.height,
        time: r.time,
        balance: amountText(r.balance),
        received: amountText(r.received),
        sent: amountText(r.sent),
        txCount: r.tx_count,
      }));
    },
    async flowSummary(address, now): Promise<FlowSummary> {
      const [a, w] = await Promise.all([selectAddress(sql, address), selectFlowWindows(sql, address, now)]);
      const win = (i: Int8, o: Int8, n: number) => ({
        inflow: amountText(i),
        outflow: amountText(o),
        net: String(BigInt(i) - BigInt(o)),
        txCount: n,
      });
      return {
        address,
        inflow: amountText(a?.received),
        outflow: amountText(a?.sent),
        net: String(BigInt(a?.received ?? 0) - BigInt(a?.sent ?? 0)),
        txCount: a?.tx_count ?? 0,
        receivingTxCount: w.receiving,
        spendingTxCount: w.spending,
        windows: {
          '24h': win(w.in_24h, w.out_24h, w.n_24h),
          '7d': win(w.in_7d, w.out_7d, w.n_7d),
          '30d': win(w.in_30d, w.out_30d, w.n_30d),
        },
        firstSeen: a ? { height: a.first_seen_height, time: a.first_seen_time } : null,
        lastSeen: a ? { height: a.last_seen_height, time: a.last_seen_time } : null,
      };
    },
    async getAddresses(addresses) {
      return (await selectAddresses(sql, addresses)).map((a) =>
        toAddressSummary(
          a.address,
          a.seen ? a : null,
          a.label === null ? null : { label: a.label, kind: a.kind ?? '' },
        ),
      );
    },
    async getWalletTotals(addresses) {
      const t = await selectWalletTotals(sql, addresses);
      return { txCount: t.tx_count, received: amountText(t.received), sent: amountText(t.sent) };
    },
    async listMultiAddressTxs(addresses, page) {
      return (await selectMultiAddressTxs(sql, addresses, page)).map((r) => ({
        ...toTx(r),
        received: amountText(r.received),
        sent: amountText(r.sent),
        net: String(BigInt(r.received) - BigInt(r.sent)),
        addresses: r.addresses,
      }));
    },
    async listMultiAddressUtxos(addresses, page) {
      return (await selectMultiAddressUtxos(sql, addresses, page)).map((r) => ({
        ...toUtxo(r),
        address: r.address,
      }));
    },
    async listAddressFlows(address, page) {
      return (await selectAddressFlows(sql, address, page)).map((r) => ({
        txid: r.txid,
        blockHeight: r.block_height,
        blockHash: r.block_hash,
        blockIndex: r.block_index,
        time: r.block_time,
        received: amountText(r.received),
        sent: amountText(r.sent),
        net: String(BigInt(r.received) - BigInt(r.sent)),
        balance: amountText(r.balance),
      }));
    },
  };
}
