import type { AddressSummary, FlowSummary, Store } from '@explorer/core';
import { dateOfDay, feeRate, iso, toAddressSummary, toTx, toUtxo } from './mappers.js';
import {
  selectAddresses,
  selectMultiAddressTxs,
  selectMultiAddressUtxos,
  selectWalletTotals,
} from './queries/address-lists.js';
import {
  type AddressSummaryQueryRow,
  selectAddress,
  selectAddressByScriptHash,
  selectAddressChainStats,
  selectAddressFlows,
  selectAddressSummary,
  selectAddressTxs,
  selectAddressUtxos,
  selectBalanceHistory,
  selectFlowWindows,
} from './queries/addresses.js';
import { selectAddressMempoolTotals, selectAddressMempoolTxs } from './queries/mempool-txs.js';
import { amountText, type Int8, type Sql } from './sql.js';

/** An address's summary from its row of totals and label. */
const summaryOf = (a: AddressSummaryQueryRow): AddressSummary =>
  toAddressSummary(
    a.address,
    a.seen ? a : null,
    a.label === null ? null : { label: a.label, kind: a.kind ?? '' },
  );

const net = (received: Int8, sent: Int8) => String(BigInt(received) - BigInt(sent));

/** The address reads of the Store over SQL (one address, many, a wallet's totals). createSqlStore includes these. */
export function addressStoreMethods(
  sql: Sql,
): Pick<
  Store,
  | 'getAddress'
  | 'listAddressMempoolTxs'
  | 'addressMempool'
  | 'listAddressTxs'
  | 'listAddressUtxos'
  | 'balanceHistory'
  | 'flowSummary'
  | 'getAddresses'
  | 'getWalletTotals'
  | 'listMultiAddressTxs'
  | 'listMultiAddressUtxos'
  | 'listAddressFlows'
  | 'addressChainStats'
  | 'addressByScriptHash'
> {
  return {
    async addressChainStats(address) {
      const r = await selectAddressChainStats(sql, address);
      return {
        funded: r.funded,
        fundedSum: amountText(r.funded_sum),
        spent: r.spent,
        spentSum: amountText(r.spent_sum),
        txCount: r.tx_count,
        mempoolTxids: r.mempool_txids ?? [],
      };
    },
    addressByScriptHash: (scriptHash) => selectAddressByScriptHash(sql, scriptHash),
    async getAddress(address) {
      return summaryOf(await selectAddressSummary(sql, address));
    },
    async listAddressMempoolTxs(address, page) {
      return (await selectAddressMempoolTxs(sql, address, page)).map((r) => ({
        txid: r.txid,
        firstSeen: Number(r.first_seen),
        received: amountText(r.received),
        sent: amountText(r.sent),
        net: net(r.received, r.sent),
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
        net: net(r.received, r.sent),
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
        net: net(i, o),
        txCount: n,
      });
      return {
        address,
        inflow: amountText(a?.received),
        outflow: amountText(a?.sent),
        net: net(a?.received ?? 0, a?.sent ?? 0),
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
      return (await selectAddresses(sql, addresses)).map(summaryOf);
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
        net: net(r.received, r.sent),
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
        net: net(r.received, r.sent),
        balance: amountText(r.balance),
      }));
    },
  };
}
