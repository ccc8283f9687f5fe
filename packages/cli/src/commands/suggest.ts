import type { Command } from 'commander';
import { MATCH_COLUMNS } from '../columns.js';
import { type CliIo, contextOf } from '../context.js';
import { showRows, withExamples } from '../run.js';

/**
 * `explorer suggest <q>`: completions of a prefix (heights, pools, hashes, txids, addresses).
 * @example explorer suggest 12
 */
export function suggestCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('suggest')
    .description('autocomplete a prefix')
    .argument('<q>', 'the prefix')
    .option('--limit <n>', 'at most n suggestions');
  withExamples(cmd, 'explorer suggest 12', 'explorer suggest dvt1q --limit 5');
  return cmd.action(async (q: string, o: { limit?: string }, c: Command) => {
    const ctx = contextOf(c, io);
    await showRows(ctx, ctx.client.suggest(q, { limit: o.limit }), {
      listKey: 'suggestions',
      columns: MATCH_COLUMNS,
    });
  });
}
