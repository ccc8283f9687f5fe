import type { Command } from 'commander';
import { TX_COLUMNS } from '../columns.js';
import { type CliIo, contextOf } from '../context.js';
import { addListOptions, type ListOptions, type ListQuery, showList, withExamples } from '../run.js';

/**
 * `explorer txs`: recent transactions, newest first, with value, fee, type and counterparties.
 * @example explorer txs --limit 10
 */
export function txsCommand(program: Command, io: CliIo): Command {
  const cmd = addListOptions(program.command('txs').description('recent transactions, newest first'));
  withExamples(cmd, 'explorer txs --limit 10', 'explorer txs --all --max 1000 --ndjson');
  return cmd.action(async (o: ListOptions, c: Command) => {
    const ctx = contextOf(c, io);
    await showList(
      ctx,
      { list: (q: ListQuery) => ctx.client.txs.list(q), listKey: 'txs', columns: TX_COLUMNS },
      o,
    );
  });
}
