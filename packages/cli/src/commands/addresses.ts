import { Argument, type Command } from 'commander';
import { ADDRESS_SUMMARY_COLUMNS, MULTI_ADDRESS_TX_COLUMNS, MULTI_ADDRESS_UTXO_COLUMNS } from '../columns.js';
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

/** The views of `explorer addresses`. */
export const ADDRESSES_VIEWS = ['summary', 'txs', 'utxos'] as const;

/**
 * `explorer addresses <view> <address...>`: many addresses in one request: their summaries, their merged
 * history (each transaction once, amounts summed over the addresses) or their merged UTXOs.
 * @example explorer addresses utxos dvt1qa… dvt1qb… dvt1qc… --all --ndjson
 */
export function addressesCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('addresses')
    .description('many addresses at once (a wallet): summary, txs (merged history) or utxos (merged)')
    .addArgument(new Argument('<view>', 'what to show').choices(ADDRESSES_VIEWS))
    .argument('<address...>', 'base58 or bech32 addresses (at most 50 without an API key, 200 with one)');
  addListOptions(cmd);
  withExamples(
    cmd,
    'explorer addresses summary <address> <address>',
    'explorer addresses txs <address> <address> --all --ndjson > wallet-txs.ndjson',
    'explorer addresses utxos <address> <address> --all',
  );
  return cmd.action(async (view: string, addresses: string[], o: ListOptions, c: Command) => {
    const ctx = contextOf(c, io);
    const api = ctx.client.addresses;
    if (view === 'txs') {
      return showList(
        ctx,
        {
          list: (q: ListQuery) => api.txsOfMany(addresses, q),
          listKey: 'txs',
          columns: MULTI_ADDRESS_TX_COLUMNS,
        },
        o,
      );
    }
    if (view === 'utxos') {
      return showList(
        ctx,
        {
          list: (q: ListQuery) => api.utxosOfMany(addresses, q),
          listKey: 'utxos',
          columns: MULTI_ADDRESS_UTXO_COLUMNS,
        },
        o,
      );
    }
    refuseListOptions(o, 'the address summaries');
    return showRows(ctx, api.getMany(addresses), { listKey: 'addresses', columns: ADDRESS_SUMMARY_COLUMNS });
  });
}
