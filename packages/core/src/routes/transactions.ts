import { z } from 'zod';
import { NotFoundError } from '../errors.js';
import { cursorKey } from '../pagination/cursor-key.js';
import { defineList } from '../pagination/list-route.js';
import { defineRoute, type RouteContext } from '../route.js';
import { InputSchema, OutputSchema } from '../schemas/block.js';
import { TxFlowSchema, TxSchema, TxWithCounterpartiesSchema } from '../schemas/tx.js';
import type { TxRecord } from '../store.js';
import { confirmations, isFinal, txidParam } from './params.js';

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

/** Transactions newest first, by block position; cursors carry the block's hash as reorg guard. */
export const txsKey = cursorKey(TxWithCounterpartiesSchema, ['blockHeight', 'blockIndex'], {
  order: 'desc',
  guard: 'blockHash',
});

/** A transaction's inputs in order. */
export const txInputsKey = cursorKey(InputSchema, ['vin'], { order: 'asc' });

/** A transaction's outputs in order. */
export const txOutputsKey = cursorKey(OutputSchema, ['vout'], { order: 'asc' });

/** The transaction routes. */
export const transactionRoutes = [
  defineList({
    id: 'listTxs',
    path: '/v1/txs',
    perTip: true,
    tag: 'Transactions',
    summary: 'Recent transaction flows',
    description: 'Newest first: value, fee, type and counterparties of each transaction.',
    items: 'txs',
    key: txsKey,
    scope: () => 'txs',
    load: (ctx, page) => ctx.store.listTxs(page),
    confirmations: 'blockHeight',
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
  defineList({
    id: 'listTxInputs',
    path: '/v1/txs/{txid}/inputs',
    perTip: true,
    tag: 'Transactions',
    summary: 'Transaction inputs',
    description: 'With the value and address of each spent output.',
    params: txidParam,
    notFound: true,
    items: 'inputs',
    key: txInputsKey,
    parent: (ctx) => loadTx(ctx, ctx.params.txid),
    scope: (_ctx, tx) => `tx-inputs:${tx.txid}`,
    load: (ctx, page, tx) => ctx.store.listTxInputs(tx.txid, page),
    // Inputs never change once their block is final (outputs can still be spent, so they are not).
    immutable: (ctx, tx) => isFinal(ctx.meta.indexedTip, tx.blockHeight, ctx.config),
  }),
  defineList({
    id: 'listTxOutputs',
    path: '/v1/txs/{txid}/outputs',
    perTip: true,
    tag: 'Transactions',
    summary: 'Transaction outputs',
    description: 'With spend state.',
    params: txidParam,
    notFound: true,
    items: 'outputs',
    key: txOutputsKey,
    parent: (ctx) => loadTx(ctx, ctx.params.txid),
    scope: (_ctx, tx) => `tx-outputs:${tx.txid}`,
    load: (ctx, page, tx) => ctx.store.listTxOutputs(tx.txid, page),
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
