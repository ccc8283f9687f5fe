import { z } from 'zod';
import { blocksKey, topMinersKey } from '../pagination/keys.js';
import { defineList } from '../pagination/list-route.js';
import { defineRoute } from '../route.js';
import { DailyBlocksSchema, MinerSchema } from '../schemas/mining.js';
import { addressParam } from './params.js';

/** Miner routes: payout addresses by mined blocks. A payout address that mined nothing answers with zeros. */
export const minerRoutes = [
  defineList({
    id: 'listTopMiners',
    path: '/v1/miners/top',
    perTip: true,
    tag: 'Miners',
    summary: 'Top payout addresses by mined blocks',
    description: 'Most blocks first, with share of all indexed blocks, last block, label and pool.',
    items: 'miners',
    key: topMinersKey,
    scope: () => 'miners-top',
    load: (ctx, page) => ctx.store.listTopMiners(page),
  }),
  defineList({
    id: 'getMiner',
    path: '/v1/miners/{address}',
    perTip: true,
    tag: 'Miners',
    summary: 'Miner summary and mined blocks',
    description: 'Totals of a payout address and the blocks it mined, newest first (paginated).',
    params: addressParam,
    items: 'blocks',
    key: blocksKey,
    scope: (ctx) => `miner-blocks:${ctx.params.address}`,
    load: (ctx, page) => ctx.store.listMinerBlocks(ctx.params.address, page),
    confirmations: 'height',
    also: {
      response: { miner: MinerSchema },
      load: async (ctx) => ({ miner: await ctx.store.getMiner(ctx.params.address) }),
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
