import type { PagedRequest, PageInfo } from '@explorer/client';
import type { Command } from 'commander';
import type { CommandContext } from './context.js';
import { CliInterruptedError, CliUsageError } from './errors.js';
import {
  type ApiData,
  type Column,
  createListPrinter,
  printData,
  renderRecord,
  renderTable,
} from './output.js';
import { createProgress } from './progress.js';

/** The options of list commands. */
export interface ListOptions {
  limit?: string;
  cursor?: string;
  all?: boolean;
  max?: string;
}

/** A success body of the API: the envelope the SDK resolves with. */
type Body = { ok: true; meta: unknown; pagination?: PageInfo };

/** The members of a body besides ok, meta and pagination: where its rows may be. */
type MemberOf<B> = Exclude<keyof B, 'ok' | 'meta' | 'pagination'> & string;

/** The query the list options become; `limit` is passed as typed, so the server's 400 explains a bad one. */
export interface ListQuery {
  limit?: string | number;
  cursor?: string;
}

/** A list operation of the SDK and how to show its rows. */
export interface ListSpec<B extends Body> {
  /**
   * Starts the SDK's list request, e.g. `(q: ListQuery) => client.blocks.txs(ref, q)` (`q` typed, so the body
   * type is inferred from the request before `listKey` is checked against it).
   */
  list: (query: ListQuery) => PagedRequest<B, unknown>;
  /** The member holding the rows (checked against the body). */
  listKey: MemberOf<B>;
  columns: readonly Column[];
}

/** An answer that is one unpaged list (a ranking, search matches…) and how to show its rows. */
export interface RowsSpec<B extends Body> {
  /** The member holding the rows. */
  listKey: MemberOf<B>;
  columns: readonly Column[];
  /** A member of the answer this view leaves out (two lists in one answer). */
  omit?: MemberOf<B>;
}

/** The rows per page of `--all` when `--limit` does not say (the API's largest page). */
const ALL_PAGE_SIZE = 100;

/** A body without ok and meta: what the command line prints. */
function dataOf(body: Body): ApiData {
  const { ok: _ok, meta: _meta, ...data } = body as Body & ApiData;
  return data;
}

/** The rows at `listKey`; none when the member is missing (a table of nothing rather than a crash). */
const rowsOf = (data: ApiData, listKey: string): unknown[] => {
  const rows = data[listKey];
  return Array.isArray(rows) ? rows : [];
};

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
 * @example await showOne(ctx, ctx.client.status())
 */
export async function showOne(ctx: CommandContext, request: Promise<Body>, listKey?: string): Promise<void> {
  const data = dataOf(await request);
  printData(ctx.output, data, () => renderRecord(data, ctx.output.baseUnits), listKey);
}

/**
 * Shows an answer that is one unpaged list (a ranking, search matches…) with chosen columns.
 * @example await showRows(ctx, ctx.client.pools.top({ limit: 5 }), { listKey: 'pools', columns: POOL_SHARE_COLUMNS })
 */
export async function showRows<B extends Body>(
  ctx: CommandContext,
  request: Promise<B>,
  spec: RowsSpec<B>,
): Promise<void> {
  const data = dataOf(await request);
  if (spec.omit) delete data[spec.omit];
  printData(
    ctx.output,
    data,
    () => {
      const { [spec.listKey]: _rows, ...others } = data;
      const table = renderTable(spec.columns, rowsOf(data, spec.listKey), ctx.output.baseUnits);
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

/**
 * Shows a list: one page (`--limit`, `--cursor`), or every page with `--all`, streamed as it arrives (the SDK
 * follows the cursors, waits out Retry-After, and asks the last page only for the rows `--max` still needs).
 * @example await showList(ctx, { list: (q) => ctx.client.blocks.list(q), listKey: 'blocks', columns: BLOCK_COLUMNS }, { all: true })
 */
export async function showList<B extends Body>(
  ctx: CommandContext,
  spec: ListSpec<B>,
  o: ListOptions,
): Promise<void> {
  const max = parseMax(o);
  const printer = createListPrinter(ctx.output, spec.listKey, spec.columns);
  if (!o.all) {
    const data = dataOf(await spec.list({ limit: o.limit, cursor: o.cursor }));
    if (ctx.output.format !== 'table') {
      printData(ctx.output, data, () => '', spec.listKey);
      return;
    }
    printer.page(data, rowsOf(data, spec.listKey));
    printer.end();
    const next = data.pagination?.nextCursor;
    if (next) ctx.io.stderr.write(`more rows: --cursor ${next} (or --all)\n`);
    return;
  }
  const progress = createProgress(ctx, max);
  try {
    const pages = spec.list({ limit: o.limit ?? ALL_PAGE_SIZE, cursor: o.cursor }).pages({ max });
    for await (const page of pages) {
      const data = dataOf(page);
      const rows = rowsOf(data, spec.listKey);
      progress.clear();
      printer.page(data, rows);
      progress.add(rows.length);
      if (ctx.io.signal.aborted) break;
    }
  } finally {
    progress.stop();
    // Closes the JSON document even after an interrupt or an error, so what was printed stays valid.
    printer.end();
  }
  if (ctx.io.signal.aborted) throw new CliInterruptedError();
}
