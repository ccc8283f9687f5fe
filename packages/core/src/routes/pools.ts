import { z } from 'zod';
import { NotFoundError } from '../errors.js';
import { pageQuery, toPage } from '../pagination/params.js';
import { guardedKey, guardedPageRequest } from '../pagination/reorg-guard.js';
import { defineRoute, type RouteContext } from '../route.js';
import {
  DailyBlocksSchema,
  PayoutOutputSchema,
  PoolSchema,
  PoolShareSchema,
  PoolWindowSchema,
} from '../schemas/mining.js';
import { guardStore } from './params.js';

const poolIdParam = z.object({
  poolId: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
      'poolId must be a pool id: 1 to 64 letters, digits, dots, dashes or underscores',
    )
    .describe('Pool id (the slug of the pool definitions, or `unknown`).'),
});

async function requirePool(ctx: RouteContext<{ poolId: string }, unknown>) {
  const pool = await ctx.store.getPool(ctx.params.poolId);
  if (!pool) throw new NotFoundError(`pool ${ctx.params.poolId} not found`);
  return pool;
}

/** Pool routes: pools by known label or inferred coinbase tag; `unknown` is a pool like any other. */
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
      blocks: z.int().describe('Blocks in the window.'),
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
      'Definition, totals, payout addresses and recent payout outputs. 404 for an unknown pool id.',
    params: poolIdParam,
    response: { pool: PoolSchema },
    notFound: true,
    async handler(ctx) {
      return { body: { pool: await requirePool(ctx) } };
    },
  }),
  defineRoute({
    id: 'getPoolBlocksOverTime',
    path: '/v1/pools/{poolId}/blocks-over-time',
    perTip: true,
    tag: 'Pools',
    summary: 'Daily mined blocks of a pool',
    description: 'One entry per UTC day on which the pool mined, oldest first.',
    params: poolIdParam,
    response: { poolId: z.string(), days: z.array(DailyBlocksSchema) },
    notFound: true,
    async handler(ctx) {
      await requirePool(ctx);
      return {
        body: { poolId: ctx.params.poolId, days: await ctx.store.poolBlocksOverTime(ctx.params.poolId) },
      };
    },
  }),
  defineRoute({
    id: 'listPoolPayoutOutputs',
    path: '/v1/pools/{poolId}/payout-outputs',
    perTip: true,
    tag: 'Pools',
    summary: 'Coinbase payout outputs of a pool',
    description: 'Newest first. Paginated with cursors like every list (the contract names only limit).',
    params: poolIdParam,
    query: z.object(pageQuery),
    response: { outputs: z.array(PayoutOutputSchema) },
    list: true,
    notFound: true,
    async handler(ctx) {
      await requirePool(ctx);
      const scope = `pool-payouts:${ctx.params.poolId}`;
      const req = await guardedPageRequest(guardStore(ctx), ctx.query, scope, ['number', 'number']);
      const rows = await ctx.store.listPoolPayoutOutputs(ctx.params.poolId, req);
      const page = toPage(rows, req, ctx.query, scope, (o) =>
        guardedKey([o.blockHeight, o.vout], o.blockHash),
      );
      return { body: { outputs: page.items }, pagination: page.pagination };
    },
  }),
] as const;
