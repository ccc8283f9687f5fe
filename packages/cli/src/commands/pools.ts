import { type Command, Option } from 'commander';
import { POOL_SHARE_COLUMNS } from '../columns.js';
import { type CliIo, contextOf } from '../context.js';
import { showRows, withExamples } from '../run.js';

/**
 * `explorer pools [top]`: pools ranked by blocks over a window (a ranking: `--limit` only, no cursors).
 * @example explorer pools top --window 30d
 */
export function poolsCommand(program: Command, io: CliIo): Command {
  const pools = program.command('pools').description('mining pools ranked by blocks');
  // `explorer pools` alone is the ranking: `top` is its default subcommand.
  const top = pools
    .command('top', { isDefault: true })
    .description('top pools by blocks over a window (the default)')
    .addOption(
      new Option('--window <window>', 'window ending at the tip').choices(['24h', '7d', '30d', 'all']),
    )
    .option('--limit <n>', 'pools to show, 1-100 (default 20)');
  withExamples(top, 'explorer pools top --window 30d');
  withExamples(pools, 'explorer pools', 'explorer pools top --window 30d');
  top.action(async (o: { window?: string; limit?: string }, c: Command) => {
    const ctx = contextOf(c, io);
    await showRows(ctx, ctx.client.pools.top({ window: o.window, limit: o.limit }), {
      listKey: 'pools',
      columns: POOL_SHARE_COLUMNS,
    });
  });
  return pools;
}
