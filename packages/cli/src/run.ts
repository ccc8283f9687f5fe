import type { Command } from 'commander';
import type { CommandContext } from './context.js';
import { CliInterruptedError, CliUsageError } from './errors.js';
import type { Query } from './http.js';
import { type Column, createListPrinter, printData, renderRecord, renderTable } from './output.js';
import { createProgress } from './progress.js';

/** The options of list commands. */
export interface ListOptions {
  limit?: string;
  cursor?: string;
  all?: boolean;
  max?: string;
}

/** A list endpoint and how to show its rows. */
export interface ListSpec {
  path: string;
  query?: Query;
  /** The member holding the rows. */
  listKey: string;
  columns: readonly Column[];
  /** A member of the answer this view leaves out (two lists in one answer). */
  omit?: string;
}

/** Adds --limit, --cursor, --all and --max to a command. */
export function addListOptions(cmd: Command): Command {
  return cmd
    .option('--limit <n>', 'rows per page, 1-100 (default 20; 100 with --all)')
    .option('--cursor <cursor>', 'start after this cursor (a previous page’s pagination.nextCursor)')
    .option('--all', 'follow the cursors to the end, printing rows as they arrive (Ctrl-C stops cleanly)')
    .option('--max <n>', 'with --all: stop after n rows');
}

/** Refuses list options on a view that is not a list. */
export function refuseListOptions(o: ListOptions, view: string): void {
  const given = (['limit', 'cursor', 'all', 'max'] as const).filter((k) => o[k] !== undefined);
  if (given.length > 0) throw new CliUsageError(`--${given[0]} applies to lists; ${view} is not one`);
}

function parseMax(o: ListOptions): number | undefined {
  if (o.max === undefined) return undefined;
  const max = Number(o.max);
  if (!Number.isInteger(max) || max < 1) throw new CliUsageError('--max must be a positive integer');
  if (!o.all) throw new CliUsageError('--max needs --all');
  return max;
}

/**
 * Shows one answer that is not a paged list: JSON, NDJSON (the rows at `listKey`, a dotted path, one per
 * line; else the whole answer on one line), or a key/value table followed by a table per list inside.
 * @example await showOne(ctx, '/v1/status')
 */
export async function showOne(ctx: CommandContext, path: string, query: Query = {}, listKey?: string) {
  const { data } = await ctx.http.get(path, query);
  printData(ctx.output, data, () => renderRecord(data, ctx.output.baseUnits), listKey);
}

/**
 * Shows an answer that is one unpaged list (a ranking, search matches…) with chosen columns.
 * @example await showRows(ctx, { path: '/v1/pools/top', listKey: 'pools', columns: POOL_SHARE_COLUMNS })
 */
export async function showRows(ctx: CommandContext, spec: ListSpec): Promise<void> {
  const { data } = await ctx.http.get(spec.path, spec.query);
  if (spec.omit) delete data[spec.omit];
  printData(
    ctx.output,
    data,
    () => {
      const { [spec.listKey]: rows, ...others } = data;
      const table = renderTable(spec.columns, Array.isArray(rows) ? rows : [], ctx.output.baseUnits);
      return Object.keys(others).length > 0
        ? `${renderRecord(others, ctx.output.baseUnits)}\n\n${table}`
        : table;
    },
    spec.listKey,
  );
}

/** Appends examples to a command's --help. */
export function withExamples(cmd: Command, ...examples: string[]): Command {
  return cmd.addHelpText(
    'after',
    `\nExample${examples.length > 1 ? 's' : ''}:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`,
  );
}

/** Puts a path parameter into a path. */
export const seg = (value: string) => encodeURIComponent(value);

/**
 * Shows a list: one page (`--limit`, `--cursor`), or every page with `--all`, streamed as it arrives.
 * @example await showList(ctx, { path: '/v1/blocks', listKey: 'blocks', columns: BLOCK_COLUMNS }, { all: true })
 */
export async function showList(ctx: CommandContext, spec: ListSpec, o: ListOptions): Promise<void> {
  const max = parseMax(o);
  const printer = createListPrinter(ctx.output, spec.listKey, spec.columns);
  if (!o.all) {
    const { data } = await ctx.http.get(spec.path, { ...spec.query, limit: o.limit, cursor: o.cursor });
    if (ctx.output.format !== 'table') {
      printData(ctx.output, data, () => '', spec.listKey);
      return;
    }
    const rows = data[spec.listKey];
    printer.page(data, Array.isArray(rows) ? rows : []);
    printer.end();
    const next = data.pagination?.nextCursor;
    if (next) ctx.io.stderr.write(`more rows: --cursor ${next} (or --all)\n`);
    return;
  }
  const progress = createProgress(ctx, max);
  try {
    const pages = ctx.http.pages(
      spec.path,
      { ...spec.query, cursor: o.cursor },
      {
        listKey: spec.listKey,
        pageSize: o.limit,
        max,
      },
    );
    for await (const page of pages) {
      progress.clear();
      printer.page(page.data, page.items);
      progress.add(page.items.length);
      if (ctx.io.signal.aborted) break;
    }
  } finally {
    progress.stop();
    // Closes the JSON document even after an interrupt or an error, so what was printed stays valid.
    printer.end();
  }
  if (ctx.io.signal.aborted) throw new CliInterruptedError();
}
