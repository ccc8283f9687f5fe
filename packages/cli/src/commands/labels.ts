import { Argument, type Command } from 'commander';
import type { CliIo } from '../context.js';
import { contextOf } from '../context.js';
import type { Column } from '../output.js';
import { showRows, withExamples } from '../run.js';

const LABEL_COLUMNS: readonly Column[] = [
  { header: 'address', value: (l) => l.address },
  { header: 'label', value: (l) => l.label },
  { header: 'kind', value: (l) => l.kind },
];

const KNOWN_POOL_COLUMNS: readonly Column[] = [
  { header: 'id', value: (p) => p.id },
  { header: 'name', value: (p) => p.name },
  { header: 'addresses', value: (p) => (Array.isArray(p.addresses) ? p.addresses.length : '') },
  { header: 'link', value: (p) => p.link },
];

/**
 * `explorer labels [pools]`: known address labels (default) or pool definitions.
 * @example explorer labels
 */
export function labelsCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('labels')
    .description('known address labels (default) or pool definitions (pools)')
    .addArgument(new Argument('[view]', 'what to show').choices(['pools']));
  withExamples(cmd, 'explorer labels', 'explorer labels pools --ndjson');
  return cmd.action(async (view: string | undefined, _o: unknown, c: Command) => {
    const pools = view === 'pools';
    const ctx = contextOf(c, io);
    await showRows(ctx, ctx.client.knownAddresses(), {
      listKey: pools ? 'pools' : 'labels',
      columns: pools ? KNOWN_POOL_COLUMNS : LABEL_COLUMNS,
      omit: pools ? 'labels' : 'pools',
    });
  });
}
