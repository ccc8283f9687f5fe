import { z } from 'zod';
import { NotFoundError, ServiceUnavailableError } from '../errors.js';
import { txInputsKey, txOutputsKey, txOutspendsKey, txsKey } from '../pagination/keys.js';
import { defineList } from '../pagination/list-route.js';
import { defineRoute, type RouteContext } from '../route.js';
import { TxFlowSchema, type TxProof, TxSchema, type TxStatus, TxStatusSchema } from '../schemas/tx.js';
import type { TxKey, TxRecord } from '../store.js';
import { MEMPOOL_CACHE_MS } from './mempool.js';
import { confirmations, isFinal, txidParam } from './params.js';

const MEMPOOL_TXIDS_UNAVAILABLE =
  'the transaction is not in the index, and the chain node is unreachable to say whether it is in the mempool';

/** A transaction's summary, through the cache once final; null when no indexed block holds it. */
export function txOf(ctx: RouteContext<unknown, unknown>, txid: string): Promise<TxRecord | null> {
  return ctx.memo(
    `tx:${txid}`,
    () => ctx.store.getTx(txid),
    (t) => isFinal(ctx.meta.indexedTip, t.blockHeight, ctx.config),
  );
}

/** Loads a transaction (through the cache once final) or answers 404. */
async function loadTx(ctx: RouteContext<unknown, unknown>, txid: string): Promise<TxRecord> {
  const tx = await txOf(ctx, txid);
  if (!tx) throw new NotFoundError(`transaction ${txid} not found`);
  return tx;
}

/**
 * A transaction's merkle proof and block header; null when no indexed block holds it. It moves only with a
 * reorg: kept once its block is final, shared per indexed tip until then.
 */
export function txProofOf(ctx: RouteContext<unknown, unknown>, txid: string): Promise<TxProof | null> {
  return ctx.memo(
    `tx-proof:${txid}`,
    () => ctx.store.getTxProof(txid),
    (p) => isFinal(ctx.meta.indexedTip, p.blockHeight, ctx.config),
  );
}

/**
 * Whether the chain node's mempool holds `txid`: the node's txid list (`getrawmempool`) is asked at most once
 * per MEMPOOL_CACHE_MS and shared by every request meanwhile. False where no node is configured; 503 when the
 * node cannot answer, since the transaction may then be waiting there.
 */
async function inMempool(ctx: RouteContext<unknown, unknown>, txid: string): Promise<boolean> {
  const node = ctx.node;
  if (node === null) return false;
  const txids = await ctx
    .live(
      'mempool-txids',
      async () => {
        const list = await node.call<unknown>('getrawmempool', [false]);
        if (!Array.isArray(list)) throw new Error('getrawmempool did not answer with a list');
        return new Set(list.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase()));
      },
      { ttlMs: MEMPOOL_CACHE_MS },
    )
    .catch(() => {
      throw new ServiceUnavailableError(MEMPOOL_TXIDS_UNAVAILABLE);
    });
  return txids.has(txid);
}

/** The status of a transaction the index does not hold but the mempool does. */
const waiting = (txid: string): TxStatus => ({
  txid,
  confirmed: false,
  inMempool: true,
  confirmations: 0,
  blockHeight: null,
  blockHash: null,
  blockIndex: null,
  blockTime: null,
  blockTxCount: null,
  merkleProof: null,
  header: null,
});

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
    parent: (ctx): Promise<TxKey> => loadTx(ctx, ctx.params.txid),
    async first(ctx, page) {
      const r = await ctx.store.listTxInputs(ctx.params.txid, page);
      if (!r.tx) throw new NotFoundError(`transaction ${ctx.params.txid} not found`);
      return { parent: r.tx, rows: r.inputs };
    },
    scope: (_ctx, tx) => `tx-inputs:${tx.txid}`,
    load: async (ctx, page, tx) => (await ctx.store.listTxInputs(tx.txid, page)).inputs,
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
    parent: (ctx): Promise<TxKey> => loadTx(ctx, ctx.params.txid),
    async first(ctx, page) {
      const r = await ctx.store.listTxOutputs(ctx.params.txid, page);
      if (!r.tx) throw new NotFoundError(`transaction ${ctx.params.txid} not found`);
      return { parent: r.tx, rows: r.outputs };
    },
    scope: (_ctx, tx) => `tx-outputs:${tx.txid}`,
    load: async (ctx, page, tx) => (await ctx.store.listTxOutputs(tx.txid, page)).outputs,
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
  defineRoute({
    id: 'getTxStatus',
    path: '/v1/txs/{txid}/status',
    tag: 'Transactions',
    summary: 'Transaction status and merkle proof',
    description:
      'Confirmed (in an indexed block) or waiting in the chain node’s mempool. For a confirmed transaction: its block, position and confirmations, a merkle proof of inclusion (esplora’s merkle-proof: sibling hashes leaf level first, in display order, and pos) and the block header’s bytes (80 on Bitcoin Core and Litecoin, 108 on Pearl), so that a light client can check it against headers it trusts. 404 when neither the index nor the mempool holds the txid; 503 when the index does not and the node cannot be asked.',
    params: txidParam,
    response: { status: TxStatusSchema },
    notFound: true,
    async handler(ctx) {
      const { txid } = ctx.params;
      const proof = await txProofOf(ctx, txid);
      if (proof) {
        const status: TxStatus = {
          txid,
          confirmed: true,
          inMempool: false,
          confirmations: confirmations(ctx, proof.blockHeight),
          ...proof,
        };
        return { body: { status } };
      }
      if (await inMempool(ctx, txid)) return { body: { status: waiting(txid) } };
      throw new NotFoundError(`transaction ${txid} not found`);
    },
  }),
  defineList({
    id: 'listTxOutspends',
    path: '/v1/txs/{txid}/outspends',
    perTip: true,
    tag: 'Transactions',
    summary: 'Spend state of each output',
    description:
      'In output order: whether each output is spent and, if so, by which transaction, input and block height. Spends by indexed blocks only (a mempool spend shows as unspent). Paged like every list (limit 1–100).',
    params: txidParam,
    notFound: true,
    items: 'outspends',
    key: txOutspendsKey,
    scope: (ctx) => `tx-outspends:${ctx.params.txid}`,
    // One statement finds the transaction and reads the page, so no separate lookup precedes it.
    async load(ctx, page) {
      const rows = await ctx.store.listTxOutspends(ctx.params.txid, page);
      if (rows === null) throw new NotFoundError(`transaction ${ctx.params.txid} not found`);
      return rows;
    },
  }),
] as const;
