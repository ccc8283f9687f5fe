import { z } from 'zod';
import { addressFlowsKey, addressMempoolKey, addressTxsKey, addressUtxosKey } from '../pagination/keys.js';
import { defineList } from '../pagination/list-route.js';
import { defineRoute } from '../route.js';
import {
  AddressMempoolSchema,
  AddressSummarySchema,
  BalancePointSchema,
  FlowSummarySchema,
} from '../schemas/address.js';
import { addressParam } from './params.js';

/** The address routes. Unknown (never seen) addresses answer 200 with zero totals: the contract declares no 404. */
export const addressRoutes = [
  defineRoute({
    id: 'getAddress',
    path: '/v1/addresses/{address}',
    perTip: true,
    tag: 'Addresses',
    summary: 'Address summary',
    description:
      'Balance, totals, first/last seen and known label. An address never seen answers with zeros and seen=false.',
    params: addressParam,
    response: { address: AddressSummarySchema },
    async handler(ctx) {
      return { body: { address: await ctx.store.getAddress(ctx.params.address) } };
    },
  }),
  defineList({
    id: 'listAddressTxs',
    path: '/v1/addresses/{address}/txs',
    perTip: true,
    tag: 'Addresses',
    summary: 'Transactions of an address',
    description: 'Newest first, each with what it received, sent and the balance after it.',
    params: addressParam,
    items: 'txs',
    key: addressTxsKey,
    scope: (ctx) => `address-txs:${ctx.params.address}`,
    load: (ctx, page) => ctx.store.listAddressTxs(ctx.params.address, page),
    confirmations: 'blockHeight',
  }),
  defineList({
    id: 'listAddressUtxos',
    path: '/v1/addresses/{address}/utxos',
    perTip: true,
    tag: 'Addresses',
    summary: 'Unspent outputs of an address',
    description: 'Newest first.',
    params: addressParam,
    items: 'utxos',
    key: addressUtxosKey,
    scope: (ctx) => `address-utxos:${ctx.params.address}`,
    load: (ctx, page) => ctx.store.listAddressUtxos(ctx.params.address, page),
    confirmations: 'blockHeight',
  }),
  defineRoute({
    id: 'getAddressBalanceHistory',
    path: '/v1/addresses/{address}/balance-history',
    perTip: true,
    tag: 'Addresses',
    summary: 'Balance history',
    description: 'The balance at the end of every UTC day on which the address had activity, oldest first.',
    params: addressParam,
    response: { address: z.string(), history: z.array(BalancePointSchema) },
    async handler(ctx) {
      return {
        body: { address: ctx.params.address, history: await ctx.store.balanceHistory(ctx.params.address) },
      };
    },
  }),
  defineRoute({
    id: 'getAddressFlowSummary',
    path: '/v1/addresses/{address}/flow-summary',
    perTip: true,
    tag: 'Addresses',
    summary: 'Inflow/outflow summary',
    description: 'Totals, and 24 h / 7 d / 30 d windows ending at the indexed tip’s block time.',
    params: addressParam,
    response: { summary: FlowSummarySchema },
    async handler(ctx) {
      const now = ctx.tip?.time ?? Math.floor(ctx.now / 1000);
      return { body: { summary: await ctx.store.flowSummary(ctx.params.address, now) } };
    },
  }),
  defineList({
    id: 'listAddressFlows',
    path: '/v1/addresses/{address}/flows',
    perTip: true,
    tag: 'Addresses',
    summary: 'Flow rows of an address',
    description: 'Newest first: what each transaction received and sent, and the balance after it.',
    params: addressParam,
    items: 'flows',
    key: addressFlowsKey,
    scope: (ctx) => `address-flows:${ctx.params.address}`,
    load: (ctx, page) => ctx.store.listAddressFlows(ctx.params.address, page),
  }),
  defineList({
    id: 'listAddressMempool',
    path: '/v1/addresses/{address}/mempool',
    tag: 'Addresses',
    summary: 'Unconfirmed activity of an address',
    description:
      'The address’s transactions waiting in the chain node’s mempool, newest first (by when the node first saw them), each with what it receives and sends, its fee and fee rate; and, in `mempool`, the confirmed balance with the mempool’s totals and the balance including them (balance + mempoolDelta). Read from what the indexer’s mempool watcher stored at its last reading (every ~2 s), so every replica answers the same; a transaction leaves the list with the block write that confirms it. Not cached per tip: it changes without the tip moving.',
    params: addressParam,
    items: 'txs',
    key: addressMempoolKey,
    scope: (ctx) => `address-mempool:${ctx.params.address}`,
    load: (ctx, page) => ctx.store.listAddressMempoolTxs(ctx.params.address, page),
    also: {
      response: { mempool: AddressMempoolSchema },
      load: async (ctx) => ({ mempool: await ctx.store.addressMempool(ctx.params.address) }),
    },
  }),
] as const;
