import { Argument, type Command } from 'commander';
import { OUTPUT_COLUMNS, TX_COLUMNS } from '../columns.js';
import { type CliIo, contextOf } from '../context.js';
import { CliUsageError } from '../errors.js';
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

/** The views of `explorer block`. */
export const BLOCK_VIEWS = ['txs', 'outputs', 'coinbase', 'certificate', 'raw'] as const;

/**
 * `explorer block <heightOrHash> [view]`: a block's summary, its transactions, outputs, coinbase payouts,
 * certificate or raw JSON.
 * @example explorer block 100 txs --all --ndjson
 */
export function blockCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('block')
    .description('one block: summary (default), txs, outputs, coinbase, certificate or raw')
    .argument('<heightOrHash>', 'block height or 64-hex block hash')
    .addArgument(new Argument('[view]', 'what to show').choices(BLOCK_VIEWS))
    .option('--proof', 'with certificate: include the proof (hex)');
  addListOptions(cmd);
  withExamples(
    cmd,
    'explorer block 100',
    'explorer block 100 txs --all --ndjson',
    'explorer block 100 certificate --proof',
  );
  return cmd.action(
    async (ref: string, view: string | undefined, o: ListOptions & { proof?: boolean }, c: Command) => {
      const ctx = contextOf(c, io);
      const api = ctx.client.blocks;
      if (view === 'txs') {
        return showList(
          ctx,
          { list: (q: ListQuery) => api.txs(ref, q), listKey: 'txs', columns: TX_COLUMNS },
          o,
        );
      }
      if (view === 'outputs') {
        return showList(
          ctx,
          { list: (q: ListQuery) => api.outputs(ref, q), listKey: 'outputs', columns: OUTPUT_COLUMNS },
          o,
        );
      }
      refuseListOptions(o, view ?? 'the block summary');
      if (o.proof && view !== 'certificate')
        throw new CliUsageError('--proof applies to `explorer block <h> certificate`');
      if (view === 'coinbase') {
        return showRows(ctx, api.coinbaseOutputs(ref), { listKey: 'outputs', columns: OUTPUT_COLUMNS });
      }
      if (view === 'certificate') {
        return showOne(ctx, api.certificate(ref, o.proof ? { includeProof: true } : {}));
      }
      if (view === 'raw') return showOne(ctx, api.raw(ref));
      return showOne(ctx, api.get(ref));
    },
  );
}
