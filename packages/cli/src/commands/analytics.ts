import { Argument, type Command } from 'commander';
import { type CliIo, contextOf } from '../context.js';
import { seg, showOne, withExamples } from '../run.js';

/** The analytics the API serves. */
export const ANALYTICS_KINDS = ['network', 'pouw', 'supply', 'pools', 'market'] as const;

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
  return cmd.action(async (kind: string, _o: unknown, c: Command) => {
    await showOne(contextOf(c, io), `/v1/analytics/${seg(kind)}`);
  });
}
