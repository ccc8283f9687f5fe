import { z } from 'zod';
import { poolPayoutsKey } from '../pagination/keys.js';
import { defineList } from '../pagination/list-route.js';
import { pageQuery } from '../pagination/params.js';
import { defineRoute, type RouteContext } from '../route.js';
import { Count } from '../schemas/common.js';
import {
  DailyBlocksSchema,
  type Pool,
  PoolSchema,
  PoolShareSchema,
  PoolWindowSchema,
} from '../schemas/mining.js';

const poolIdParam = z.object({
  poolId: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
      'poolId must be a pool id: 1 to 64 letters, digits, dots, dashes or underscores',
    )
    .describe('Pool id (the slug of the pool definitions, or `unknown`).')
    .meta({ examples: ['foundryusa'] }),
});

/**
 * A pool, or for an id no definition names and no block carries, the same summary with zero totals and
 * `seen: false`: like an address never used, an unknown pool is an empty result, not a 404 (the contract
 * declares 404 only where a single block or transaction is addressed).
 */
async function loadPool(ctx: RouteContext<{ poolId: string }, unknown>): Promise<Pool> {
  const id = ctx.params.poolId;
  const pool = await ctx.store.getPool(id);
  if (pool) return { ...pool, seen: true };
  return {
    id,
    name: id === 'unknown' ? 'Unknown' : id,
    link: null,
    defined: false,
    seen: false,
    tags: [],
    definedAddresses: [],
    blocks: 0,
    share: 0,
    reward: '0',
    firstHeight: null,
    lastHeight: null,
    payoutAddresses: [],
    recentPayoutOutputs: [],
  };
}

/**
 * Pool routes: pools by known label or inferred coinbase tag; `unknown` is a pool like any other. An unknown id
 * answers 200 with zeros and empty lists, as an address never seen does.
 */
export const poolRoutes = [
  defineRoute({
    id: 'listTopPools',
    path: '/v1/pools/top',
    perTip: true,
    tag: 'Pools',
    summary: 'Top pools by blocks over a window',
    description:
      'A ranking, not a paged list: `limit` only. `24h` ends at the tip’s block time; `7d` and `30d` are the last 7/30 UTC days up to the tip’s day; `all` is the whole chain.',
    query: z.object({
      limit: pageQuery.limit,
      window: PoolWindowSchema.optional().describe('24h, 7d (default), 30d or all.'),
    }),
    response: {
      window: PoolWindowSchema,
      blocks: Count.describe('Blocks in the window.'),
      pools: z.array(PoolShareSchema),
    },
    async handler(ctx) {
      const window = ctx.query.window ?? '7d';
      const limit = ctx.query.limit ?? 20;
      const shares = await ctx.memoAtTip(`pools:top:${window}:${limit}`, () =>
        ctx.store.poolShares(window, limit),
      );
      return { body: { window, ...shares } };
    },
  }),
  defineRoute({
    id: 'getPool',
    path: '/v1/pools/{poolId}',
    perTip: true,
    tag: 'Pools',
    summary: 'Pool summary',
    description:
      'Definition, totals, payout addresses and recent payout outputs. An id that no definition names and no indexed block carries answers with zero totals, empty lists and `seen: false`.',
    params: poolIdParam,
    response: { pool: PoolSchema },
    async handler(ctx) {
      return { body: { pool: await loadPool(ctx) } };
    },
  }),
  defineRoute({
    id: 'getPoolBlocksOverTime',
    path: '/v1/pools/{poolId}/blocks-over-time',
    perTip: true,
    tag: 'Pools',
    summary: 'Daily mined blocks of a pool',
    description: 'One entry per UTC day on which the pool mined, oldest first (empty for an unknown id).',
    params: poolIdParam,
    response: { poolId: z.string(), days: z.array(DailyBlocksSchema) },
    async handler(ctx) {
      return {
        body: { poolId: ctx.params.poolId, days: await ctx.store.poolBlocksOverTime(ctx.params.poolId) },
      };
    },
  }),
  defineList({
    id: 'listPoolPayoutOutputs',
    path: '/v1/pools/{poolId}/payout-outputs',
    perTip: true,
    tag: 'Pools',
    summary: 'Coinbase payout outputs of a pool',
    description:
      'Newest first (empty for an unknown id). Paginated with cursors like every list (the contract names only limit).',
    params: poolIdParam,
    items: 'outputs',
    key: poolPayoutsKey,
    scope: (ctx) => `pool-payouts:${ctx.params.poolId}`,
    load: (ctx, page) => ctx.store.listPoolPayoutOutputs(ctx.params.poolId, page),
  }),
] as const;
