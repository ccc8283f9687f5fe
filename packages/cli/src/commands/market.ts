import { Argument, type Command, Option } from 'commander';
import { type CliIo, contextOf } from '../context.js';
import { CliUsageError } from '../errors.js';
import { showOne, withExamples } from '../run.js';

/**
 * `explorer market [chart]`: cached market data, or the cached price history with `chart --days N`.
 * @example explorer market chart --days 30
 */
export function marketCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('market')
    .description('cached market data (default) or price history (chart)')
    .addArgument(new Argument('[view]', 'what to show').choices(['chart']))
    .addOption(new Option('--days <n>', 'with chart: window in days').choices(['1', '7', '30', '90', '365']))
    .option('--vs-currency <code>', 'with chart: currency of the prices (default: the first configured)');
  withExamples(cmd, 'explorer market', 'explorer market chart --days 30 --ndjson');
  return cmd.action(
    async (view: string | undefined, o: { days?: string; vsCurrency?: string }, c: Command) => {
      const ctx = contextOf(c, io);
      if (view === 'chart') {
        return showOne(
          ctx,
          ctx.client.market.chart({ days: o.days, vsCurrency: o.vsCurrency }),
          'chart.points',
        );
      }
      if (o.days !== undefined || o.vsCurrency !== undefined) {
        throw new CliUsageError('--days and --vs-currency apply to `explorer market chart`');
      }
      return showOne(ctx, ctx.client.market.get());
    },
  );
}
