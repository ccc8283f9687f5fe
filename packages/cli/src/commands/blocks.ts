import type { Command } from 'commander';
import { BLOCK_COLUMNS } from '../columns.js';
import { type CliIo, contextOf } from '../context.js';
import { addListOptions, type ListOptions, type ListQuery, showList, withExamples } from '../run.js';

/**
 * `explorer blocks`: recent blocks, newest first.
 * @example explorer blocks --limit 5
 */
export function blocksCommand(program: Command, io: CliIo): Command {
  const cmd = addListOptions(program.command('blocks').description('recent blocks, newest first'));
  withExamples(cmd, 'explorer blocks --limit 5', 'explorer blocks --all --max 500 --ndjson > blocks.ndjson');
  return cmd.action(async (o: ListOptions, c: Command) => {
    const ctx = contextOf(c, io);
    await showList(
      ctx,
      { list: (q: ListQuery) => ctx.client.blocks.list(q), listKey: 'blocks', columns: BLOCK_COLUMNS },
      o,
    );
  });
}
