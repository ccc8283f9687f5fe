import { Argument, type Command } from 'commander';
import { MULTI_ADDRESS_TX_COLUMNS, MULTI_ADDRESS_UTXO_COLUMNS, WALLET_ADDRESS_COLUMNS } from '../columns.js';
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

/** The views of `explorer wallet`. */
export const WALLET_VIEWS = ['txs', 'utxos'] as const;

/**
 * `explorer wallet <key> [view]`: a wallet from its extended public key or descriptor: its summary (balance, used
 * addresses with their paths, first unused receive and change addresses), its merged history or its UTXOs.
 * @example explorer wallet 'wpkh([d34db33f/84h/1h/0h]tpub…/<0;1>/*)' utxos --all --ndjson
 */
export function walletCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('wallet')
    .description('a wallet from its xpub or descriptor: summary (default), txs or utxos')
    .argument('<key>', 'extended public key (xpub, tpub, zpub, vpub…) or descriptor; quote it in the shell')
    .addArgument(new Argument('[view]', 'what to show').choices(WALLET_VIEWS))
    .option('--gap <n>', 'gap limit: unused addresses in a row that end discovery, 1-100 (default 20)');
  addListOptions(cmd);
  withExamples(
    cmd,
    'explorer wallet tpubD…',
    "explorer wallet 'tr([2cbe2a6d/86h/1h/0h]tpubD…/<0;1>/*)' --gap 50",
    'explorer wallet tpubD… txs --all --ndjson > wallet-txs.ndjson',
  );
  return cmd.action(
    async (key: string, view: string | undefined, o: ListOptions & { gap?: string }, c: Command) => {
      const ctx = contextOf(c, io);
      const api = ctx.client.wallet;
      // Passed as typed: the server's 400 explains a bad gap.
      const gap = o.gap as unknown as number | undefined;
      if (view === 'txs') {
        return showList(
          ctx,
          {
            list: (q: ListQuery) => api.txs(key, { ...q, gap }),
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
            list: (q: ListQuery) => api.utxos(key, { ...q, gap }),
            listKey: 'utxos',
            columns: MULTI_ADDRESS_UTXO_COLUMNS,
          },
          o,
        );
      }
      refuseListOptions(o, 'the wallet summary');
      // The summary's members, its used addresses as the table.
      const summary = api.get(key, { gap }).then(({ wallet, ...rest }) => ({ ...rest, ...wallet }));
      return showRows(ctx, summary, { listKey: 'used', columns: WALLET_ADDRESS_COLUMNS });
    },
  );
}
