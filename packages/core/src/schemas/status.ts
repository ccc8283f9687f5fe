import { z } from 'zod';
import { Height, TipHeight } from './common.js';

/**
 * How a sync is going, as the indexer last reported it (the figures of its `syncing: …` log line): recorded
 * with the index, so every API process serves the same ones.
 */
export const SyncProgressSchema = z
  .object({
    height: TipHeight.describe('Height the index had reached when these figures were taken.'),
    nodeHeight: Height.describe('The node’s height this sync runs to.'),
    percent: z
      .number()
      .min(0)
      .max(100)
      .describe('height ÷ nodeHeight in percent, one decimal.')
      .meta({ examples: [40] }),
    blocksPerSecond: z
      .number()
      .min(0)
      .describe('Blocks written per second over the last progress interval (one decimal).')
      .meta({ examples: [85.2] }),
    txPerSecond: z
      .number()
      .min(0)
      .describe('Transactions written per second over the last progress interval (one decimal).')
      .meta({ examples: [690.4] }),
    etaSeconds: z
      .int()
      .min(0)
      .nullable()
      .describe(
        'Seconds until nodeHeight is reached at the pace of this sync so far; null before a pace is known.',
      )
      .meta({ examples: [33] }),
    startedAt: z.string().describe('When this sync began (ISO 8601, UTC).'),
    updatedAt: z
      .string()
      .describe(
        'When these figures were taken (ISO 8601, UTC); they are renewed every progress interval (5 s).',
      ),
  })
  .meta({ id: 'SyncProgress' });

/** How a sync is going. */
export type SyncProgress = z.infer<typeof SyncProgressSchema>;
