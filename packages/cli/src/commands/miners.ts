import type { Command } from 'commander';
import { MINER_COLUMNS } from '../columns.js';
import { type CliIo, contextOf } from '../context.js';
import { addListOptions, type ListOptions, type ListQuery, showList, withExamples } from '../run.js';

/**
 * `explorer miners [top]`: payout addresses ranked by mined blocks.
 * @example explorer miners top --limit 10
 */
export function minersCommand(program: Command, io: CliIo): Command {
  const miners = program.command('miners').description('payout addresses ranked by mined blocks');
  // `explorer miners` alone is the ranking: `top` is its default subcommand.
  const top = addListOptions(
    miners
      .command('top', { isDefault: true })
      .description('top payout addresses by mined blocks (the default)'),
  );
  withExamples(top, 'explorer miners top --limit 10');
  withExamples(miners, 'explorer miners', 'explorer miners top --limit 10');
  top.action(async (o: ListOptions, c: Command) => {
    const ctx = contextOf(c, io);
    await showList(
      ctx,
      { list: (q: ListQuery) => ctx.client.miners.top(q), listKey: 'miners', columns: MINER_COLUMNS },
      o,
    );
  });
  return miners;
}
