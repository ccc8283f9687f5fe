import type { Command } from 'commander';
import { TX_COLUMNS } from '../columns.js';
import { type CliIo, contextOf } from '../context.js';
import { addListOptions, type ListOptions, showList, withExamples } from '../run.js';

/**
 * `explorer txs`: recent transactions, newest first, with value, fee, type and counterparties.
 * @example explorer txs --limit 10
 */
export function txsCommand(program: Command, io: CliIo): Command {
  const cmd = addListOptions(program.command('txs').description('recent transactions, newest first'));
  withExamples(cmd, 'explorer txs --limit 10', 'explorer txs --all --max 1000 --ndjson');
  return cmd.action(async (o: ListOptions, c: Command) => {
    await showList(contextOf(c, io), { path: '/v1/txs', listKey: 'txs', columns: TX_COLUMNS }, o);
  });
}
