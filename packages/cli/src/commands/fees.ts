import type { Command } from 'commander';
import { type CliIo, contextOf } from '../context.js';
import { showOne, withExamples } from '../run.js';

/**
 * `explorer fees`: recommended fee rates for the next block, ~30 min, ~1 h and eventually.
 * @example explorer fees
 */
export function feesCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('fees')
    .description('recommended fee rates (base units per vbyte): next block, ~30 min, ~1 h, economy');
  withExamples(cmd, 'explorer fees', 'explorer fees --json');
  return cmd.action(async (_o: unknown, c: Command) => {
    const ctx = contextOf(c, io);
    await showOne(ctx, ctx.client.fees());
  });
}
