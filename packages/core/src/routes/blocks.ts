import { z } from 'zod';
import { NotFoundError } from '../errors.js';
import { blockOutputsKey, blocksKey, blockTxsKey } from '../pagination/keys.js';
import { defineList } from '../pagination/list-route.js';
import { defineRoute, type RouteContext } from '../route.js';
import { BlockSchema, CertificateSchema, OutputSchema } from '../schemas/block.js';
import { Height } from '../schemas/common.js';
import type { BlockKey, BlockRecord, BlockRef } from '../store.js';
import { blockNotFound, confirmations, heightOrHashParam, isFinal, refKey } from './params.js';

const withConfirmations = (ctx: RouteContext<unknown, unknown>, b: BlockRecord) => ({
  ...b,
  confirmations: confirmations(ctx, b.height),
});

/** Loads a block (through the cache once it is final) or answers 404. */
async function loadBlock(ctx: RouteContext<unknown, unknown>, ref: BlockRef): Promise<BlockRecord> {
  const block = await ctx.memo(
    `block:${refKey(ref)}`,
    () => ctx.store.getBlock(ref),
    (b) => isFinal(ctx.meta.indexedTip, b.height, ctx.config),
  );
  if (!block) blockNotFound(ref);
  return block;
}

const includeProofQuery = z.object({
  includeProof: z
    .enum(['true', 'false'], { error: 'includeProof must be true or false' })
    .optional()
    .transform((v) => v === 'true')
    .describe('Include the certificate proof data (hex) when available. Default false.')
    // Parsed from the query text (exactly `true` or `false`); documented as the boolean it means.
    .meta({ type: 'boolean', default: false }),
});

/** The block routes. */
export const blockRoutes = [
  defineList({
    id: 'listBlocks',
    path: '/v1/blocks',
    perTip: true,
    tag: 'Blocks',
    summary: 'Recent blocks',
    description: 'Newest first, with miner labels, pool and certificate summary.',
    items: 'blocks',
    key: blocksKey,
    scope: () => 'blocks',
    load: (ctx, page) => ctx.store.listBlocks(page),
    confirmations: 'height',
  }),
  defineRoute({
    id: 'getBlock',
    path: '/v1/blocks/{heightOrHash}',
    perTip: true,
    tag: 'Blocks',
    summary: 'Block summary',
    description:
      'Header fields, sizes, fees and reward, miner and pool, and the certificate summary. 404 for a height or hash the index does not hold.',
    params: heightOrHashParam,
    response: { block: BlockSchema },
    notFound: true,
    async handler(ctx) {
      const block = await loadBlock(ctx, ctx.params.heightOrHash);
      return { body: { block: withConfirmations(ctx, block) } };
    },
  }),
  defineRoute({
    id: 'getBlockCertificate',
    path: '/v1/blocks/{heightOrHash}/certificate',
    perTip: true,
    tag: 'Blocks',
    summary: 'Chain-native block certificate',
    description:
      'Certificate metadata; the proof (hex) with includeProof=true. 404 when the block or its certificate is absent.',
    params: heightOrHashParam,
    query: includeProofQuery,
    response: { certificate: CertificateSchema },
    notFound: true,
    async handler(ctx) {
      const ref = ctx.params.heightOrHash;
      const block = await loadBlock(ctx, ref);
      const final = isFinal(ctx.meta.indexedTip, block.height, ctx.config);
      const cert = await ctx.memo(
        `cert:${block.height}:${ctx.query.includeProof}`,
        () => ctx.store.getCertificate({ height: block.height }, ctx.query.includeProof),
        () => final,
      );
      if (!cert) throw new NotFoundError(`block ${block.height} has no certificate`);
      return { body: { certificate: cert }, immutable: final };
    },
  }),
  defineRoute({
    id: 'getBlockCoinbaseOutputs',
    path: '/v1/blocks/{heightOrHash}/coinbase-outputs',
    perTip: true,
    tag: 'Blocks',
    summary: 'Coinbase payout outputs',
    description: 'Every output of the block’s coinbase transaction, with spend state.',
    params: heightOrHashParam,
    response: { height: Height, hash: z.string(), outputs: z.array(OutputSchema) },
    notFound: true,
    async handler(ctx) {
      const block = await loadBlock(ctx, ctx.params.heightOrHash);
      const outputs = await ctx.store.coinbaseOutputs(block.height);
      return { body: { height: block.height, hash: block.hash, outputs } };
    },
  }),
  defineList({
    id: 'listBlockOutputs',
    path: '/v1/blocks/{heightOrHash}/outputs',
    perTip: true,
    tag: 'Blocks',
    summary: 'Outputs created in a block',
    description: 'In block order (transaction position, then output index), with spend state.',
    params: heightOrHashParam,
    notFound: true,
    items: 'outputs',
    key: blockOutputsKey,
    parent: (ctx): Promise<BlockKey> => loadBlock(ctx, ctx.params.heightOrHash),
    async first(ctx, page) {
      const r = await ctx.store.listBlockOutputs(ctx.params.heightOrHash, page);
      return { parent: r.block ?? blockNotFound(ctx.params.heightOrHash), rows: r.outputs };
    },
    scope: (_ctx, block) => `block-outputs:${block.hash}`,
    load: async (ctx, page, block) =>
      (await ctx.store.listBlockOutputs({ height: block.height }, page)).outputs,
  }),
  defineRoute({
    id: 'getBlockRaw',
    path: '/v1/blocks/{heightOrHash}/raw',
    perTip: true,
    tag: 'Blocks',
    summary: 'Stored raw block JSON',
    description:
      'The node’s block JSON as indexed, with `tx` as a list of txids (transactions are at /v1/txs/{txid}/raw).',
    params: heightOrHashParam,
    response: { raw: z.record(z.string(), z.unknown()).describe('The node’s getblock JSON.') },
    notFound: true,
    async handler(ctx) {
      const block = await loadBlock(ctx, ctx.params.heightOrHash);
      const final = isFinal(ctx.meta.indexedTip, block.height, ctx.config);
      const raw = await ctx.memo(
        `block-raw:${block.height}`,
        () => ctx.store.getBlockRaw({ height: block.height }),
        () => final,
      );
      if (raw === null) blockNotFound(ctx.params.heightOrHash);
      return { body: { raw: raw as Record<string, unknown> }, immutable: final };
    },
  }),
  defineList({
    id: 'listBlockTxs',
    path: '/v1/blocks/{heightOrHash}/txs',
    perTip: true,
    tag: 'Blocks',
    summary: 'Transactions in a block',
    description: 'In block order, coinbase first.',
    params: heightOrHashParam,
    notFound: true,
    items: 'txs',
    key: blockTxsKey,
    parent: (ctx): Promise<BlockKey> => loadBlock(ctx, ctx.params.heightOrHash),
    async first(ctx, page) {
      const r = await ctx.store.listBlockTxs(ctx.params.heightOrHash, page);
      return { parent: r.block ?? blockNotFound(ctx.params.heightOrHash), rows: r.txs };
    },
    scope: (_ctx, block) => `block-txs:${block.hash}`,
    load: async (ctx, page, block) => (await ctx.store.listBlockTxs({ height: block.height }, page)).txs,
    confirmations: 'blockHeight',
  }),
] as const;
