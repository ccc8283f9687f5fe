import type { Command } from 'commander';
import { type CliIo, contextOf } from '../context.js';
import { showOne, withExamples } from '../run.js';

/**
 * `explorer mempool`: the node's mempool summary (count, size, fees, fee-rate histogram).
 * @example explorer mempool
 */
export function mempoolCommand(program: Command, io: CliIo): Command {
  const cmd = program.command('mempool').description('mempool summary from the chain node');
  withExamples(cmd, 'explorer mempool', 'explorer mempool --json');
  return cmd.action(async (_o: unknown, c: Command) => {
    const ctx = contextOf(c, io);
    await showOne(ctx, ctx.client.mempool());
  });
}
