import type { Command } from 'commander';
import { type CliIo, contextOf } from '../context.js';
import { showOne, withExamples } from '../run.js';

/**
 * `explorer status`: API, database, node and indexer health.
 * @example explorer status
 */
export function statusCommand(program: Command, io: CliIo): Command {
  const cmd = program.command('status').description('API, database, node and indexer status');
  withExamples(cmd, 'explorer status', 'explorer status --json');
  return cmd.action(async (_o: unknown, c: Command) => {
    const ctx = contextOf(c, io);
    await showOne(ctx, ctx.client.status());
  });
}
