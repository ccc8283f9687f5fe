import { z } from 'zod';
import { defineRoute } from '../route.js';
import { type KnownLabel, KnownLabelSchema, type KnownPool, KnownPoolSchema } from '../schemas/search.js';

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Labels by label (case-insensitively, then exactly), then address. */
export const compareLabels = (a: KnownLabel, b: KnownLabel) =>
  cmp(a.label.toLowerCase(), b.label.toLowerCase()) || cmp(a.label, b.label) || cmp(a.address, b.address);

/** Pools by name (case-insensitively, then exactly), then id. */
export const comparePools = (a: KnownPool, b: KnownPool) =>
  cmp(a.name.toLowerCase(), b.name.toLowerCase()) || cmp(a.name, b.name) || cmp(a.id, b.id);

/** /v1/known-addresses. */
export const labelRoutes = [
  defineRoute({
    id: 'listKnownAddresses',
    path: '/v1/known-addresses',
    perTip: true,
    tag: 'Labels',
    summary: 'Known address and pool labels',
    description:
      'Every labelled address (with its pool’s name when it names one) and every pool definition: ids, names, links, payout addresses and coinbase tag patterns. Labels are sorted by label then address, pools by name then id.',
    response: {
      labels: z
        .array(KnownLabelSchema)
        .describe('Every known label, by label (case-insensitive), then address.'),
      pools: z.array(KnownPoolSchema).describe('Every pool definition, by name (case-insensitive), then id.'),
    },
    async handler(ctx) {
      const store = ctx.store;
      const [labels, pools] = await Promise.all([store.knownLabels(), store.knownPools()]);
      return { body: { labels: labels.sort(compareLabels), pools: pools.sort(comparePools) } };
    },
  }),
] as const;
