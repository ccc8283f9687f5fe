import { z } from 'zod';
import { pageQuery, toPage } from '../pagination/params.js';
import { guardedKey, guardedPageRequest } from '../pagination/reorg-guard.js';
import { defineRoute } from '../route.js';
import {
  AddressSummarySchema,
  AddressTxSchema,
  BalancePointSchema,
  FlowRowSchema,
  FlowSummarySchema,
  UtxoSchema,
} from '../schemas/address.js';
import { addressParam, confirmations, guardStore } from './params.js';

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
  defineRoute({
    id: 'listAddressTxs',
    path: '/v1/addresses/{address}/txs',
    perTip: true,
    tag: 'Addresses',
    summary: 'Transactions of an address',
    description: 'Newest first, each with what it received, sent and the balance after it.',
    params: addressParam,
    query: z.object(pageQuery),
    response: { txs: z.array(AddressTxSchema) },
    list: true,
    async handler(ctx) {
      const scope = `address-txs:${ctx.params.address}`;
      const req = await guardedPageRequest(guardStore(ctx), ctx.query, scope, ['number', 'number']);
      const rows = await ctx.store.listAddressTxs(ctx.params.address, req);
      const page = toPage(rows, req, ctx.query, scope, (t) =>
        guardedKey([t.blockHeight, t.blockIndex], t.blockHash),
      );
      return {
        body: { txs: page.items.map((t) => ({ ...t, confirmations: confirmations(ctx, t.blockHeight) })) },
        pagination: page.pagination,
      };
    },
  }),
  defineRoute({
    id: 'listAddressUtxos',
    path: '/v1/addresses/{address}/utxos',
    perTip: true,
    tag: 'Addresses',
    summary: 'Unspent outputs of an address',
    description: 'Newest first.',
    params: addressParam,
    query: z.object(pageQuery),
    response: { utxos: z.array(UtxoSchema) },
    list: true,
    async handler(ctx) {
      const scope = `address-utxos:${ctx.params.address}`;
      const req = await guardedPageRequest(guardStore(ctx), ctx.query, scope, ['number', 'number', 'number']);
      const rows = await ctx.store.listAddressUtxos(ctx.params.address, req);
      const page = toPage(rows, req, ctx.query, scope, (u) =>
        guardedKey([u.blockHeight, u.blockIndex, u.vout], u.blockHash),
      );
      return {
        body: { utxos: page.items.map((u) => ({ ...u, confirmations: confirmations(ctx, u.blockHeight) })) },
        pagination: page.pagination,
      };
    },
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
  defineRoute({
    id: 'listAddressFlows',
    path: '/v1/addresses/{address}/flows',
    perTip: true,
    tag: 'Addresses',
    summary: 'Flow rows of an address',
    description: 'Newest first: what each transaction received and sent, and the balance after it.',
    params: addressParam,
    query: z.object(pageQuery),
    response: { flows: z.array(FlowRowSchema) },
    list: true,
    async handler(ctx) {
      const scope = `address-flows:${ctx.params.address}`;
      const req = await guardedPageRequest(guardStore(ctx), ctx.query, scope, ['number', 'number']);
      const rows = await ctx.store.listAddressFlows(ctx.params.address, req);
      const page = toPage(rows, req, ctx.query, scope, (f) =>
        guardedKey([f.blockHeight, f.blockIndex], f.blockHash),
      );
      return { body: { flows: page.items }, pagination: page.pagination };
    },
  }),
] as const;
