import { Argument, type Command } from 'commander';
import {
  ADDRESS_MEMPOOL_COLUMNS,
  ADDRESS_TX_COLUMNS,
  BALANCE_COLUMNS,
  FLOW_COLUMNS,
  UTXO_COLUMNS,
} from '../columns.js';
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

/** The views of `explorer address`. */
export const ADDRESS_VIEWS = ['txs', 'utxos', 'flows', 'balance-history', 'flow-summary', 'mempool'] as const;

/**
 * `explorer address <addr> [view]`: an address's summary, transactions, UTXOs, flows, balance history, flow
 * summary, or unconfirmed activity (mempool transactions and the balance including them).
 * @example explorer address dvt1qexample… txs --all --ndjson
 */
export function addressCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('address')
    .description(
      'one address: summary (default), txs, utxos, flows, balance-history, flow-summary or mempool (unconfirmed)',
    )
    .argument('<address>', 'base58 or bech32 address')
    .addArgument(new Argument('[view]', 'what to show').choices(ADDRESS_VIEWS));
  addListOptions(cmd);
  withExamples(
    cmd,
    'explorer address <address>',
    'explorer address <address> txs --all --ndjson > txs.ndjson',
    'explorer address <address> balance-history',
    'explorer address <address> mempool',
  );
  return cmd.action(async (address: string, view: string | undefined, o: ListOptions, c: Command) => {
    const ctx = contextOf(c, io);
    const api = ctx.client.addresses;
    if (view === 'txs') {
      return showList(
        ctx,
        { list: (q: ListQuery) => api.txs(address, q), listKey: 'txs', columns: ADDRESS_TX_COLUMNS },
        o,
      );
    }
    if (view === 'utxos') {
      return showList(
        ctx,
        { list: (q: ListQuery) => api.utxos(address, q), listKey: 'utxos', columns: UTXO_COLUMNS },
        o,
      );
    }
    if (view === 'flows') {
      return showList(
        ctx,
        { list: (q: ListQuery) => api.flows(address, q), listKey: 'flows', columns: FLOW_COLUMNS },
        o,
      );
    }
    if (view === 'mempool') {
      return showList(
        ctx,
        { list: (q: ListQuery) => api.mempool(address, q), listKey: 'txs', columns: ADDRESS_MEMPOOL_COLUMNS },
        o,
      );
    }
    refuseListOptions(o, view ?? 'the address summary');
    if (view === 'balance-history') {
      return showRows(ctx, api.balanceHistory(address), { listKey: 'history', columns: BALANCE_COLUMNS });
    }
    if (view === 'flow-summary') return showOne(ctx, api.flowSummary(address));
    return showOne(ctx, api.get(address));
  });
}
