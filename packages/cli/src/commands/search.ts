import type { Command } from 'commander';
import { MATCH_COLUMNS } from '../columns.js';
import { type CliIo, contextOf } from '../context.js';
import { showRows, withExamples } from '../run.js';

/**
 * `explorer search <q>`: everything a height, hash, txid, address, pool or label names, best match first.
 * @example explorer search 100
 */
export function searchCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('search')
    .description('resolve a height, hash, txid, address, miner, pool or label')
    .argument('<q>', 'what to look for');
  withExamples(cmd, 'explorer search 100', 'explorer search viabtc');
  return cmd.action(async (q: string, _o: unknown, c: Command) => {
    const ctx = contextOf(c, io);
    await showRows(ctx, ctx.client.search(q), { listKey: 'matches', columns: MATCH_COLUMNS });
  });
}
