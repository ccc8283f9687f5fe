import { z } from 'zod';
import { defineRoute, type RouteContext } from '../route.js';
import { ChainSchema } from '../schemas/chain.js';
import { Count, Height, TipHeight } from '../schemas/common.js';
import { SyncProgressSchema } from '../schemas/status.js';

const IdentitySchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('anonymous') }),
    z.object({ type: z.literal('key'), keyId: z.string(), name: z.string(), tier: z.string() }),
  ])
  .meta({ id: 'Identity' });

const BucketSchema = z
  .object({
    name: z
      .string()
      .describe('Bucket the request counted against (anonymous buckets are per client address).'),
    limit: Count.describe('Requests allowed per window.').meta({ examples: [120] }),
    remaining: Count.describe('Requests left in the current window.').meta({ examples: [119] }),
    reset: Count.describe('Unix time (seconds) when the window resets.').meta({ examples: [1795394006] }),
    windowSeconds: Count.meta({ examples: [60] }),
  })
  .nullable()
  .meta({ id: 'Bucket' });

const ComponentSchema = z.object({
  ok: z.boolean(),
  latencyMs: z.number().nullable(),
  error: z.string().nullable(),
});

/**
 * The checks behind /v1/status, run side by side: a database round trip, a node probe, the indexer's state and
 * the market cache's health. While the database is down the market health is null, and so is the indexer's
 * state unless the store knows it otherwise (an indexer running in the same process reports its own).
 */
async function statusChecks(ctx: RouteContext<unknown, unknown>) {
  const started = performance.now();
  const [db, probe, state, health] = await Promise.all([
    ctx.store
      .ping()
      .then(() => ({
        ok: true,
        latencyMs: Math.round((performance.now() - started) * 100) / 100,
        error: null,
      }))
      .catch((e: Error) => ({
        ok: false,
        latencyMs: null,
        error: `database unreachable: ${e.message.slice(0, 200)}`,
      })),
    ctx.node
      ? ctx.node.probe()
      : { reachable: false, height: null, latencyMs: null, error: 'no chain node configured' },
    ctx.store.indexerState().catch(() => null),
    ctx.store.marketHealth().catch(() => null),
  ]);
  return { db, probe, state, health: db.ok ? health : null };
}

/** Status and identity routes. */
export const accessRoutes = [
  defineRoute({
    id: 'getMe',
    path: '/v1/api/me',
    tag: 'API Access',
    summary: 'Current identity and rate-limit bucket',
    description:
      'Who the request was served as (anonymous, or the API key it presented) and the rate-limit bucket it counted against, with what is left of the window.',
    response: { identity: IdentitySchema, bucket: BucketSchema.describe('Null when rate limiting is off.') },
    async handler(ctx) {
      const rl = ctx.rateLimit;
      return {
        body: {
          identity: ctx.identity,
          bucket: rl
            ? {
                name: rl.bucket,
                limit: rl.limit,
                remaining: rl.remaining,
                reset: rl.reset,
                windowSeconds: rl.windowSeconds,
              }
            : null,
        },
      };
    },
  }),
  defineRoute({
    id: 'getStatus',
    path: '/v1/status',
    tag: 'Status',
    summary: 'API, database, node and indexer status',
    description:
      'Degraded parts are reported in `degraded`, never thrown: this endpoint answers 200 while the API runs.',
    response: {
      status: z
        .object({
          state: z
            .enum(['healthy', 'syncing', 'degraded'])
            .describe(
              'degraded when anything is (see `degraded`); else syncing while the index catches up with the node (the indexer is syncing and more than one block behind it); else healthy.',
            ),
          healthy: z.boolean().describe('True when nothing is degraded (also while syncing: see `state`).'),
          degraded: z.array(z.enum(['database', 'node', 'indexer', 'redis', 'market'])),
          api: z.object({ version: z.string(), startedAt: z.string(), uptimeSeconds: Count }),
          chain: ChainSchema.nullable().describe(
            'The chain the data comes from (profile, network, genesis, units); null before the indexer first reached the node.',
          ),
          database: ComponentSchema,
          node: ComponentSchema.extend({ height: Height.nullable() }),
          rateLimit: z
            .object({
              store: z.string().describe('memory or redis'),
              ok: z.boolean(),
              error: z.string().nullable(),
            })
            .nullable()
            .describe('The rate-limit store; null when rate limiting is off.'),
          market: z
            .object({
              provider: z.string(),
              ok: z.boolean().describe('Whether the last refresh succeeded.'),
              lastSuccessAt: z.string().nullable(),
              lastError: z.string().nullable(),
              consecutiveFailures: Count,
            })
            .nullable()
            .describe(
              'The market-data cache; null when no refresher has run against this database, and where no market-data provider is configured (then it is not listed in `degraded` either: see /v1/analytics/market).',
            ),
          events: z
            .object({
              source: z
                .enum(['redis', 'local', 'database'])
                .describe(
                  'Where this process hears of new events: Redis pub/sub (shared by every replica), its own indexer, or polling the event log (Redis down or not configured).',
                ),
              redis: z
                .object({ ok: z.boolean(), error: z.string().nullable() })
                .nullable()
                .describe('The Redis link live events are shared through; null when REDIS_URL is not set.'),
              lastEventId: z.string().nullable().describe('The latest event id this process delivered.'),
              subscribers: Count.describe('Open event streams and WebSocket subscriptions of this process.'),
            })
            .nullable()
            .describe('Live events (/v1/events, /v1/ws); null where this process serves none.'),
          indexer: z.object({
            state: z
              .string()
              .describe(
                'starting, syncing, synced, node-unreachable, database-unreachable, disk-full, reorg-too-deep, wrong-chain, error, stopped, unknown.',
              ),
            error: z.string().nullable(),
            tipHeight: TipHeight,
            tipHash: z.string().nullable(),
            txTipHeight: TipHeight,
            nodeHeight: Height.nullable(),
            lagBlocks: Count.nullable(),
            lagSeconds: Count.nullable().describe('Seconds between the tip block’s time and now.'),
            reorgs: Count,
            lastReorgDepth: Count.nullable(),
            lastReorgAt: z.string().nullable(),
            updatedAt: z.string().nullable(),
            progress: SyncProgressSchema.nullable().describe(
              'How the sync running now is going (the figures of the indexer’s `syncing: …` log line, renewed every 5 s); null when the indexer is not syncing.',
            ),
          }),
        })
        .meta({ id: 'Status' }),
    },
    async handler(ctx) {
      // Good news is reused for tipCacheMs; bad news is checked again by the next request, so a recovery shows
      // at once.
      const { db, probe, state, health } = await ctx.live('status', () => statusChecks(ctx), {
        keep: (c) => c.db.ok && (ctx.node === null || c.probe.reachable),
      });
      const tip = db.ok ? ctx.tip : null;
      const nodeHeight = probe.height ?? state?.nodeHeight ?? null;
      const tipHeight = state?.tipHeight ?? ctx.meta.indexedTip;
      const indexerOk = state !== null && (state.state === 'synced' || state.state === 'syncing');
      const limiter = ctx.rateLimiter?.health?.() ?? null;
      const events = ctx.events?.health() ?? null;
      const market =
        health?.provider == null
          ? null
          : {
              provider: health.provider,
              ok: health.lastAttemptOk !== false,
              lastSuccessAt:
                health.lastSuccessAt === null ? null : new Date(health.lastSuccessAt).toISOString(),
              lastError: health.lastAttemptOk === false ? health.lastError : null,
              consecutiveFailures: health.consecutiveFailures,
            };
      const degraded: ('database' | 'node' | 'indexer' | 'redis' | 'market')[] = [];
      if (!db.ok) degraded.push('database');
      if (!probe.reachable) degraded.push('node');
      if (!indexerOk) degraded.push('indexer');
      if ((limiter && !limiter.ok) || (events?.redis && !events.redis.ok)) degraded.push('redis');
      if (market && !market.ok) degraded.push('market');
      const lagBlocks = nodeHeight === null ? null : Math.max(0, nodeHeight - tipHeight);
      // A block found while the indexer follows the tip is a moment of `syncing`, not a sync worth saying.
      const catchingUp = state?.state === 'syncing' && (state.progress != null || (lagBlocks ?? 0) > 1);
      return {
        body: {
          status: {
            state: (degraded.length > 0 ? 'degraded' : catchingUp ? 'syncing' : 'healthy') as
              | 'degraded'
              | 'syncing'
              | 'healthy',
            healthy: degraded.length === 0,
            degraded,
            api: {
              version: '1.0.0',
              startedAt: new Date(ctx.config.startedAt).toISOString(),
              uptimeSeconds: Math.floor((ctx.now - ctx.config.startedAt) / 1000),
            },
            chain: state?.chain ?? null,
            database: db,
            node: {
              ok: probe.reachable,
              latencyMs: probe.latencyMs,
              error: probe.error,
              height: probe.height,
            },
            rateLimit: limiter,
            market,
            events,
            indexer: {
              state: state?.state ?? 'unknown',
              error: state?.error ?? (db.ok ? null : 'indexer state unavailable while the database is down'),
              tipHeight,
              tipHash: state?.tipHash ?? null,
              txTipHeight: state?.txTipHeight ?? tipHeight,
              nodeHeight,
              lagBlocks,
              lagSeconds: tip?.time == null ? null : Math.max(0, Math.floor(ctx.now / 1000) - tip.time),
              reorgs: state?.reorgs ?? 0,
              lastReorgDepth: state?.lastReorgDepth ?? null,
              lastReorgAt: state?.lastReorgAt ?? null,
              updatedAt: state?.updatedAt ?? null,
              progress: state?.state === 'syncing' ? (state.progress ?? null) : null,
            },
          },
        },
      };
    },
  }),
] as const;
