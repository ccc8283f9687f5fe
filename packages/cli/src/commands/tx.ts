import { Argument, type Command } from 'commander';
import { INPUT_COLUMNS, OUTPUT_COLUMNS, OUTSPEND_COLUMNS } from '../columns.js';
import { type CliIo, contextOf } from '../context.js';
import {
  addListOptions,
  type ListOptions,
  type ListQuery,
  refuseListOptions,
  showList,
  showOne,
  withExamples,
} from '../run.js';

/** The views of `explorer tx`. */
export const TX_VIEWS = ['flow', 'inputs', 'outputs', 'raw', 'status', 'outspends'] as const;

/**
 * `explorer tx <txid> [view]`: a transaction's summary, flow, inputs, outputs, raw JSON, status (with its merkle
 * proof and block header) or outspends.
 * @example explorer tx 4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b status --json
 */
export function txCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('tx')
    .description(
      'one transaction: summary (default), flow, inputs, outputs, raw, status (merkle proof) or outspends',
    )
    .argument('<txid>', 'transaction id (64 hex)')
    .addArgument(new Argument('[view]', 'what to show').choices(TX_VIEWS));
  addListOptions(cmd);
  withExamples(
    cmd,
    'explorer tx <txid>',
    'explorer tx <txid> flow',
    'explorer tx <txid> outputs --all --ndjson',
    'explorer tx <txid> status --json',
    'explorer tx <txid> outspends --all',
  );
  return cmd.action(async (txid: string, view: string | undefined, o: ListOptions, c: Command) => {
    const ctx = contextOf(c, io);
    const api = ctx.client.txs;
    if (view === 'inputs') {
      return showList(
        ctx,
        { list: (q: ListQuery) => api.inputs(txid, q), listKey: 'inputs', columns: INPUT_COLUMNS },
        o,
      );
    }
    if (view === 'outputs') {
      return showList(
        ctx,
        { list: (q: ListQuery) => api.outputs(txid, q), listKey: 'outputs', columns: OUTPUT_COLUMNS },
        o,
      );
    }
    if (view === 'outspends') {
      return showList(
        ctx,
        { list: (q: ListQuery) => api.outspends(txid, q), listKey: 'outspends', columns: OUTSPEND_COLUMNS },
        o,
      );
    }
    refuseListOptions(o, view ?? 'the transaction summary');
    if (view === 'status') return showOne(ctx, api.status(txid));
    if (view === 'flow') return showOne(ctx, api.flow(txid));
    if (view === 'raw') return showOne(ctx, api.raw(txid));
    return showOne(ctx, api.get(txid));
  });
}
