import { Argument, type Command } from 'commander';
import { DAILY_COLUMNS, PAYOUT_COLUMNS } from '../columns.js';
import { type CliIo, contextOf } from '../context.js';
import {
  addListOptions,
  type ListOptions,
  type ListQuery,
  refuseListOptions,
  showList,
  showOne,
  showRows,
  withExamples,
} from '../run.js';

/** The views of `explorer pool`. */
export const POOL_VIEWS = ['blocks-over-time', 'payout-outputs'] as const;

/**
 * `explorer pool <id> [view]`: a pool's summary, its daily blocks or its coinbase payout outputs.
 * @example explorer pool unknown payout-outputs --limit 50
 */
export function poolCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('pool')
    .description('one pool: summary (default), blocks-over-time or payout-outputs')
    .argument('<id>', 'pool id (see `explorer pools top`), or unknown')
    .addArgument(new Argument('[view]', 'what to show').choices(POOL_VIEWS));
  addListOptions(cmd);
  withExamples(cmd, 'explorer pool unknown', 'explorer pool unknown payout-outputs --limit 50');
  return cmd.action(async (id: string, view: string | undefined, o: ListOptions, c: Command) => {
    const ctx = contextOf(c, io);
    const api = ctx.client.pools;
    if (view === 'payout-outputs') {
      return showList(
        ctx,
        { list: (q: ListQuery) => api.payoutOutputs(id, q), listKey: 'outputs', columns: PAYOUT_COLUMNS },
        o,
      );
    }
    refuseListOptions(o, view ?? 'the pool summary');
    if (view === 'blocks-over-time') {
      return showRows(ctx, api.blocksOverTime(id), { listKey: 'days', columns: DAILY_COLUMNS });
    }
    return showOne(ctx, api.get(id));
  });
}
