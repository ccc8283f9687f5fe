import { z } from 'zod';
import { pageQuery, pageRequest, toPage } from '../pagination/params.js';
import { guardedKey, guardedPageRequest } from '../pagination/reorg-guard.js';
import { defineRoute } from '../route.js';
import { BlockSchema } from '../schemas/block.js';
import { DailyBlocksSchema, MinerSchema } from '../schemas/mining.js';
import { addressParam, confirmations, guardStore } from './params.js';

/** Miner routes: payout addresses by mined blocks. A payout address that mined nothing answers with zeros. */
export const minerRoutes = [
  defineRoute({
    id: 'listTopMiners',
    path: '/v1/miners/top',
    perTip: true,
    tag: 'Miners',
    summary: 'Top payout addresses by mined blocks',
    description: 'Most blocks first, with share of all indexed blocks, last block, label and pool.',
    query: z.object(pageQuery),
    response: { miners: z.array(MinerSchema) },
    list: true,
    async handler(ctx) {
      const req = pageRequest(ctx.query, 'miners-top', ['number', 'string']);
      const rows = await ctx.store.listTopMiners(req);
      const page = toPage(rows, req, ctx.query, 'miners-top', (m) => [m.blocks, m.address]);
      return { body: { miners: page.items }, pagination: page.pagination };
    },
  }),
  defineRoute({
    id: 'getMiner',
    path: '/v1/miners/{address}',
    perTip: true,
    tag: 'Miners',
    summary: 'Miner summary and mined blocks',
    description: 'Totals of a payout address and the blocks it mined, newest first (paginated).',
    params: addressParam,
    query: z.object(pageQuery),
    response: { miner: MinerSchema, blocks: z.array(BlockSchema) },
    list: true,
    async handler(ctx) {
      const scope = `miner-blocks:${ctx.params.address}`;
      const req = await guardedPageRequest(guardStore(ctx), ctx.query, scope, ['number']);
      const [miner, rows] = await Promise.all([
        ctx.store.getMiner(ctx.params.address),
        ctx.store.listMinerBlocks(ctx.params.address, req),
      ]);
      const page = toPage(rows, req, ctx.query, scope, (b) => guardedKey([b.height], b.hash));
      return {
        body: {
          miner,
          blocks: page.items.map((b) => ({ ...b, confirmations: confirmations(ctx, b.height) })),
        },
        pagination: page.pagination,
      };
    },
  }),
  defineRoute({
    id: 'getMinerBlocksOverTime',
    path: '/v1/miners/{address}/blocks-over-time',
    perTip: true,
    tag: 'Miners',
    summary: 'Daily mined blocks of a payout address',
    description: 'One entry per UTC day on which the address mined, oldest first.',
    params: addressParam,
    response: { address: z.string(), days: z.array(DailyBlocksSchema) },
    async handler(ctx) {
      return {
        body: { address: ctx.params.address, days: await ctx.store.minerBlocksOverTime(ctx.params.address) },
      };
    },
  }),
] as const;
