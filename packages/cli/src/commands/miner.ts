import { Argument, type Command } from 'commander';
import { BLOCK_COLUMNS, DAILY_COLUMNS } from '../columns.js';
import { type CliIo, contextOf } from '../context.js';
import {
  addListOptions,
  type ListOptions,
  type ListQuery,
  refuseListOptions,
  showList,
  showRows,
  withExamples,
} from '../run.js';

/**
 * `explorer miner <address> [blocks-over-time]`: a payout address's totals and the blocks it mined.
 * @example explorer miner <address> --all --ndjson
 */
export function minerCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('miner')
    .description('one payout address: totals and mined blocks (default), or blocks-over-time')
    .argument('<address>', 'payout address')
    .addArgument(new Argument('[view]', 'what to show').choices(['blocks-over-time']));
  addListOptions(cmd);
  withExamples(
    cmd,
    'explorer miner <address>',
    'explorer miner <address> --all --ndjson',
    'explorer miner <address> blocks-over-time',
  );
  return cmd.action(async (address: string, view: string | undefined, o: ListOptions, c: Command) => {
    const ctx = contextOf(c, io);
    const api = ctx.client.miners;
    if (view === 'blocks-over-time') {
      refuseListOptions(o, view);
      return showRows(ctx, api.blocksOverTime(address), { listKey: 'days', columns: DAILY_COLUMNS });
    }
    return showList(
      ctx,
      { list: (q: ListQuery) => api.get(address, q), listKey: 'blocks', columns: BLOCK_COLUMNS },
      o,
    );
  });
}
