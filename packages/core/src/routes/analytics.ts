import { defineRoute } from '../route.js';
import { NetworkSchema, PoolAnalyticsSchema, PouwSchema, SupplySchema } from '../schemas/analytics.js';

/** Analytics routes, each answered from rollups: their cost does not grow with the chain. */
export const analyticsRoutes = [
  defineRoute({
    id: 'getNetworkAnalytics',
    path: '/v1/analytics/network',
    tag: 'Analytics',
    summary: 'Difficulty, hashrate estimates, node height, indexer lag',
    description:
      'Difficulty of the tip, hashrate estimated over 1, 7 and 30 days (and the node’s own estimate), the node’s height and how far the index is behind it.',
    response: { network: NetworkSchema },
    async handler(ctx) {
      const figures = await ctx.memoAtTip('analytics:network', () => ctx.store.network());
      const node = ctx.node;
      const nodeHeight = node?.lastHeight() ?? null;
      // One node call per node height, tip and second, shared by the requests that ask meanwhile (a failure
      // is not kept: the next request asks again).
      const nodeHashrate = node
        ? await ctx
            .memoAtTip(`node:getnetworkhashps:${nodeHeight}`, () => node.call<number>('getnetworkhashps'))
            .catch(() => null)
        : null;
      return {
        body: {
          network: {
            ...figures,
            nodeHashrate: typeof nodeHashrate === 'number' ? nodeHashrate : null,
            nodeHeight,
            indexerLagBlocks: nodeHeight === null ? null : Math.max(0, nodeHeight - figures.height),
            indexerLagSeconds:
              figures.tipTime === null ? null : Math.max(0, Math.floor(ctx.now / 1000) - figures.tipTime),
          },
        },
      };
    },
  }),
  defineRoute({
    id: 'getPouwAnalytics',
    path: '/v1/analytics/pouw',
    perTip: true,
    tag: 'Analytics',
    summary: 'PoUW certificate analytics',
    description:
      'Certified share, counts by version, MoE share, proof sizes, a daily series and the latest certificates.',
    response: { pouw: PouwSchema },
    async handler(ctx) {
      return { body: { pouw: await ctx.memoAtTip('analytics:pouw', () => ctx.store.pouw()) } };
    },
  }),
  defineRoute({
    id: 'getSupplyAnalytics',
    path: '/v1/analytics/supply',
    perTip: true,
    tag: 'Analytics',
    summary: 'Chain-derived emitted and circulating supply',
    description:
      'Emitted, claimed, unspendable and circulating supply at the indexed tip, in base units, with the formula used.',
    response: { supply: SupplySchema },
    async handler(ctx) {
      return { body: { supply: await ctx.memoAtTip('analytics:supply', () => ctx.store.supply()) } };
    },
  }),
  defineRoute({
    id: 'getPoolAnalytics',
    path: '/v1/analytics/pools',
    perTip: true,
    tag: 'Analytics',
    summary: 'Pool share windows with a difficulty/hashrate overlay',
    description:
      'Pool shares of blocks over the last 24 hours, 7 and 30 days, and per UTC day of the last 30 the block count, difficulty and hashrate estimate.',
    response: { pools: PoolAnalyticsSchema },
    async handler(ctx) {
      return {
        body: { pools: await ctx.memoAtTip('analytics:pools', () => ctx.store.poolAnalytics()) },
      };
    },
  }),
] as const;
