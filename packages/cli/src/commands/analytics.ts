import type { AnalyticsApi } from '@explorer/client';
import { Argument, type Command } from 'commander';
import { type CliIo, contextOf } from '../context.js';
import { showOne, withExamples } from '../run.js';

/** The analytics the API serves: the methods of the SDK's `client.analytics`. */
export const ANALYTICS_KINDS = [
  'network',
  'pouw',
  'supply',
  'pools',
  'market',
] as const satisfies readonly (keyof AnalyticsApi)[];

/**
 * `explorer analytics <kind>`: network, PoUW certificate, supply, pool or market-cache analytics.
 * @example explorer analytics supply
 */
export function analyticsCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('analytics')
    .description('chain analytics: network, pouw, supply, pools or market')
    .addArgument(new Argument('<kind>', 'which analytics').choices(ANALYTICS_KINDS));
  withExamples(cmd, 'explorer analytics supply', 'explorer analytics network --json');
  return cmd.action(async (kind: (typeof ANALYTICS_KINDS)[number], _o: unknown, c: Command) => {
    const ctx = contextOf(c, io);
    await showOne(ctx, ctx.client.analytics[kind]());
  });
}
