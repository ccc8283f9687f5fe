import { z } from 'zod';
import { NotFoundError } from '../errors.js';
import { pageQuery, pageRequest, toPage } from '../pagination/params.js';
import { guardedKey, guardedPageRequest } from '../pagination/reorg-guard.js';
import { defineRoute, type RouteContext } from '../route.js';
import { InputSchema, OutputSchema } from '../schemas/block.js';
import { TxFlowSchema, TxSchema, TxWithCounterpartiesSchema } from '../schemas/tx.js';
import type { TxRecord } from '../store.js';
import { confirmations, guardStore, isFinal, txidParam } from './params.js';

/** Loads a transaction (through the cache once final) or answers 404. */
async function loadTx(ctx: RouteContext<unknown, unknown>, txid: string): Promise<TxRecord> {
  const tx = await ctx.memo(
    `tx:${txid}`,
    () => ctx.store.getTx(txid),
    (t) => isFinal(ctx.meta.indexedTip, t.blockHeight, ctx.config),
  );
  if (!tx) throw new NotFoundError(`transaction ${txid} not found`);
  return tx;
}

/** The transaction routes. */
export const transactionRoutes = [
  defineRoute({
    id: 'listTxs',
    path: '/v1/txs',
    perTip: true,
    tag: 'Transactions',
    summary: 'Recent transaction flows',
    description: 'Newest first: value, fee, type and counterparties of each transaction.',
    query: z.object(pageQuery),
    response: { txs: z.array(TxWithCounterpartiesSchema) },
    list: true,
    async handler(ctx) {
      const req = await guardedPageRequest(guardStore(ctx), ctx.query, 'txs', ['number', 'number']);
      const rows = await ctx.store.listTxs(req);
      const page = toPage(rows, req, ctx.query, 'txs', (t) =>
        guardedKey([t.blockHeight, t.blockIndex], t.blockHash),
      );
      return {
        body: { txs: page.items.map((t) => ({ ...t, confirmations: confirmations(ctx, t.blockHeight) })) },
        pagination: page.pagination,
      };
    },
  }),
  defineRoute({
    id: 'getTx',
    path: '/v1/txs/{txid}',
    perTip: true,
    tag: 'Transactions',
    summary: 'Transaction summary',
    description:
      'Block position, confirmations, sizes, value in and out, fee and fee rate, and the kind of transaction. 404 for a txid the index does not hold.',
    params: txidParam,
    response: { tx: TxSchema },
    notFound: true,
    async handler(ctx) {
      const tx = await loadTx(ctx, ctx.params.txid);
      return { body: { tx: { ...tx, confirmations: confirmations(ctx, tx.blockHeight) } } };
    },
  }),
  defineRoute({
    id: 'getTxFlow',
    path: '/v1/txs/{txid}/flow',
    perTip: true,
    tag: 'Transactions',
    summary: 'Transaction flow',
    description: 'Inputs, outputs, fee, net flow per address and counterparties.',
    params: txidParam,
    response: { flow: TxFlowSchema },
    notFound: true,
    async handler(ctx) {
      // Five reads make a flow. Its outputs' spend state moves with the chain and its labels with the
      // definitions, so it is shared per indexed tip (and second), not kept like the tx.
      const flow = await ctx.memoAtTip(`flow:${ctx.params.txid}`, () => ctx.store.getTxFlow(ctx.params.txid));
      if (!flow) throw new NotFoundError(`transaction ${ctx.params.txid} not found`);
      return { body: { flow } };
    },
  }),
  defineRoute({
    id: 'listTxInputs',
    path: '/v1/txs/{txid}/inputs',
    perTip: true,
    tag: 'Transactions',
    summary: 'Transaction inputs',
    description: 'With the value and address of each spent output.',
    params: txidParam,
    query: z.object(pageQuery),
    response: { inputs: z.array(InputSchema) },
    list: true,
    notFound: true,
    async handler(ctx) {
      const tx = await loadTx(ctx, ctx.params.txid);
      const scope = `tx-inputs:${tx.txid}`;
      const req = pageRequest(ctx.query, scope, ['number']);
      const rows = await ctx.store.listTxInputs(tx.txid, req);
      const page = toPage(rows, req, ctx.query, scope, (i) => [i.vin]);
      // Inputs never change once their block is final (outputs can still be spent, so they are not).
      return {
        body: { inputs: page.items },
        pagination: page.pagination,
        immutable: isFinal(ctx.meta.indexedTip, tx.blockHeight, ctx.config),
      };
    },
  }),
  defineRoute({
    id: 'listTxOutputs',
    path: '/v1/txs/{txid}/outputs',
    perTip: true,
    tag: 'Transactions',
    summary: 'Transaction outputs',
    description: 'With spend state.',
    params: txidParam,
    query: z.object(pageQuery),
    response: { outputs: z.array(OutputSchema) },
    list: true,
    notFound: true,
    async handler(ctx) {
      const tx = await loadTx(ctx, ctx.params.txid);
      const scope = `tx-outputs:${tx.txid}`;
      const req = pageRequest(ctx.query, scope, ['number']);
      const rows = await ctx.store.listTxOutputs(tx.txid, req);
      const page = toPage(rows, req, ctx.query, scope, (o) => [o.vout]);
      return { body: { outputs: page.items }, pagination: page.pagination };
    },
  }),
  defineRoute({
    id: 'getTxRaw',
    path: '/v1/txs/{txid}/raw',
    perTip: true,
    tag: 'Transactions',
    summary: 'Stored raw transaction JSON',
    description: 'The node’s transaction JSON as it came in the block (including hex).',
    params: txidParam,
    response: { raw: z.record(z.string(), z.unknown()).describe('The node’s transaction JSON.') },
    notFound: true,
    async handler(ctx) {
      const tx = await loadTx(ctx, ctx.params.txid);
      const final = isFinal(ctx.meta.indexedTip, tx.blockHeight, ctx.config);
      const raw = await ctx.memo(
        `tx-raw:${tx.txid}`,
        () => ctx.store.getTxRaw(tx.txid),
        () => final,
      );
      if (raw === null) throw new NotFoundError(`transaction ${tx.txid} not found`);
      return { body: { raw: raw as Record<string, unknown> }, immutable: final };
    },
  }),
] as const;
