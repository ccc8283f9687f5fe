import type { PageInfo } from '@explorer/client';
import Table from 'cli-table3';

/** An answer without ok and meta, what `--json` prints: the body members, and `pagination` on lists. */
export type ApiData = Record<string, unknown> & { pagination?: PageInfo };

/** How results are printed. */
export type Format = 'table' | 'json' | 'ndjson';

/** Where and how to print. */
export interface OutputOptions {
  format: Format;
  /** Print amounts as integer base units instead of coins. */
  baseUnits: boolean;
  out: { write(chunk: string): unknown };
}

/** How a table cell is shown. */
export type CellKind = 'amount' | 'time' | 'until' | 'hash' | 'share' | 'text';

/** One column of a list table. */
export interface Column {
  header: string;
  value: (row: any) => unknown;
  kind?: CellKind;
}

/** Picks the format: an explicit flag, else a table on a terminal and JSON when stdout is piped. */
export function resolveFormat(
  flags: { json?: boolean; ndjson?: boolean; table?: boolean },
  isTTY: boolean,
): Format {
  if (flags.ndjson) return 'ndjson';
  if (flags.json) return 'json';
  if (flags.table) return 'table';
  return isTTY ? 'table' : 'json';
}

const COIN = 100_000_000n;

/**
 * Base units (the API's decimal strings, or numbers) as coins with 8 decimals, exactly at any size.
 * @example formatCoins('322964134063') // '3229.64134063'
 */
export function formatCoins(units: string | number | bigint): string {
  let n: bigint;
  try {
    n = BigInt(units);
  } catch {
    return String(units);
  }
  const sign = n < 0n ? '-' : '';
  const abs = n < 0n ? -n : n;
  return `${sign}${abs / COIN}.${String(abs % COIN).padStart(8, '0')}`;
}

/** Unix seconds as ISO 8601 without milliseconds. */
export function formatTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * A Unix time yet to come (or just past) as ISO 8601 with how far it is from `nowMs`: seconds under two
 * minutes, else minutes, else hours.
 * @example formatUntil(1_000, 958_000) // '1970-01-01T00:16:40Z (in 42 s)'
 */
export function formatUntil(seconds: number, nowMs = Date.now()): string {
  const delta = Math.round(seconds - nowMs / 1000);
  const abs = Math.abs(delta);
  const span =
    abs < 120 ? `${abs} s` : abs < 7200 ? `${Math.round(abs / 60)} min` : `${Math.round(abs / 3600)} h`;
  return `${formatTime(seconds)} (${delta >= 0 ? `in ${span}` : `${span} ago`})`;
}

/** Significant digits a table shows of a number that is not whole. */
const SIGNIFICANT_DIGITS = 6;

/**
 * A number as table text: whole numbers as they are; others to 6 significant digits, but never fewer than
 * their whole part (trailing zeros dropped). JSON output keeps the API's numbers.
 * @example formatNumber(145.19354838709677) // '145.194'
 * @example formatNumber(10463831.949242195) // '10463832'
 */
export function formatNumber(n: number): string {
  if (Number.isInteger(n) || !Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 10 ** (SIGNIFICANT_DIGITS - 1)) return String(Math.round(n));
  return String(Number(n.toPrecision(SIGNIFICANT_DIGITS)));
}

/** A hash shortened to its first and last 8 characters. */
export function shortHash(hash: string): string {
  return hash.length > 20 ? `${hash.slice(0, 8)}…${hash.slice(-8)}` : hash;
}

/** One value as table text. */
export function formatCell(value: unknown, kind: CellKind, baseUnits: boolean): string {
  if (value === null || value === undefined) return '';
  if (
    kind === 'amount' &&
    (typeof value === 'number' || (typeof value === 'string' && /^-?\d+$/.test(value)))
  )
    return baseUnits ? String(value) : formatCoins(value);
  if (kind === 'time' && typeof value === 'number') return formatTime(value);
  if (kind === 'until' && typeof value === 'number') return formatUntil(value);
  if (kind === 'hash' && typeof value === 'string') return shortHash(value);
  if (kind === 'share' && typeof value === 'number') return `${(value * 100).toFixed(2)}%`;
  if (Array.isArray(value))
    return value.every((v) => typeof v !== 'object') ? value.join(', ') : `[${value.length}]`;
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'number') return formatNumber(value);
  return String(value);
}

/** Keys whose numbers are amounts in base units, and keys whose numbers are Unix times. */
const AMOUNT_KEYS = new Set([
  'value',
  'reward',
  'fees',
  'fee',
  'subsidy',
  'valueIn',
  'valueOut',
  'balance',
  'balanceAfter',
  'received',
  'sent',
  'net',
  'inflow',
  'outflow',
  'emitted',
  'circulating',
  'total',
  'opReturn',
  'burnAddresses',
  'unclaimedSubsidy',
  'claimed',
  'maxSupply',
  'totalFee',
]);
const TIME_KEYS = new Set(['time', 'blockTime', 'medianTime', 'lastBlockTime', 'tipTime', 'firstSeen']);
/** Keys whose numbers are Unix times to come, shown with how far off they are (a rate-limit window's end). */
const UNTIL_KEYS = new Set(['reset']);

const SHARE_KEYS = new Set(['share', 'certifiedShare', 'moeShare']);
const HASH_KEYS = new Set([
  'hash',
  'txid',
  'blockHash',
  'prevTxid',
  'previousHash',
  'nextHash',
  'proofCommitment',
]);

/** The kind of a field by its name; hashes are shortened only in table columns, never in a record. */
export function kindOfKey(key: string, inColumn = false): CellKind {
  if (AMOUNT_KEYS.has(key)) return 'amount';
  if (TIME_KEYS.has(key)) return 'time';
  if (UNTIL_KEYS.has(key)) return 'until';
  if (SHARE_KEYS.has(key)) return 'share';
  if (inColumn && HASH_KEYS.has(key)) return 'hash';
  return 'text';
}

// A borderless table, aligned like `ls -l`: pages printed one after another line up.
const PLAIN = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

// Wide enough for a 64-hex hash or an API path; long MWEB addresses are cut with an ellipsis.
const MAX_WIDTH = 100;

function cells(columns: readonly Column[], rows: readonly unknown[], baseUnits: boolean): string[][] {
  return rows.map((row) => columns.map((c) => formatCell(c.value(row), c.kind ?? 'text', baseUnits)));
}

/** Column widths fitting a header and rows (capped, so one long value cannot blow the layout up). */
export function fitWidths(header: readonly string[], rows: readonly string[][], cap = MAX_WIDTH): number[] {
  return header.map((h, i) => Math.min(cap, Math.max(h.length, 1, ...rows.map((r) => (r[i] ?? '').length))));
}

function render(head: string[] | null, rows: string[][], widths: number[]): string {
  const table = new Table({
    chars: PLAIN,
    colWidths: widths,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    wordWrap: false,
    truncate: '…',
  });
  if (head) table.push(head);
  table.push(...rows);
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.length > 0)
    .join('\n');
}

/**
 * A table of rows with the given columns.
 * @example renderTable([{ header: 'height', value: (b) => b.height }], blocks, false)
 */
export function renderTable(
  columns: readonly Column[],
  rows: readonly unknown[],
  baseUnits: boolean,
): string {
  const head = columns.map((c) => c.header);
  const body = cells(columns, rows, baseUnits);
  return render(head, body, fitWidths(head, body));
}

/** Flattens an object into `a.b.c` → value pairs; arrays of objects are left for their own tables. */
function flatten(obj: Record<string, unknown>, prefix = ''): [string, string, unknown][] {
  const out: [string, string, unknown][] = [];
  for (const [key, value] of Object.entries(obj)) {
    const name = prefix + key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out.push(...flatten(value as Record<string, unknown>, `${name}.`));
    } else if (!(Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object'))) {
      out.push([name, key, value]);
    }
  }
  return out;
}

/** Arrays of objects inside an object, with their dotted names. */
function nestedLists(obj: Record<string, unknown>, prefix = ''): [string, Record<string, unknown>[]][] {
  const out: [string, Record<string, unknown>[]][] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object')) {
      out.push([prefix + key, value as Record<string, unknown>[]]);
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out.push(...nestedLists(value as Record<string, unknown>, `${prefix}${key}.`));
    }
  }
  return out;
}

/** Columns for rows of unknown shape: their scalar members (long hex scripts left out). */
export function autoColumns(rows: readonly Record<string, unknown>[]): Column[] {
  const first = rows.find((r) => r !== null && typeof r === 'object') ?? {};
  return Object.entries(first)
    .filter(([key, v]) => (v === null || typeof v !== 'object') && !/Hex$|^proof$|^publicData$/.test(key))
    .map(([key]) => ({
      header: key,
      value: (r: Record<string, unknown>) => r?.[key],
      kind: kindOfKey(key, true),
    }));
}

/**
 * A readable rendering of any answer: a key/value table of its scalar members, then a table per list inside.
 * A body with a single object member (`{ block: {...} }`) is shown as that object.
 * @example renderRecord({ block: { height: 1, hash: 'ab…' } }, false)
 */
export function renderRecord(data: Record<string, unknown>, baseUnits: boolean): string {
  const { pagination: _p, ...rest } = data;
  const members = Object.values(rest);
  const only = members[0];
  const obj =
    members.length === 1 && only !== null && typeof only === 'object' && !Array.isArray(only)
      ? (only as Record<string, unknown>)
      : rest;
  const parts: string[] = [];
  const pairs = flatten(obj).map(([name, key, value]) => [
    name,
    formatCell(value, kindOfKey(key), baseUnits),
  ]);
  if (pairs.length > 0)
    parts.push(render(null, pairs as string[][], fitWidths(['', ''], pairs as string[][], 160)));
  for (const [name, rows] of nestedLists(obj)) {
    parts.push(`\n${name} (${rows.length})\n${renderTable(autoColumns(rows), rows, baseUnits)}`);
  }
  return parts.join('\n');
}

/** Prints the rows of a list as they arrive, page after page, in one format. */
export interface ListPrinter {
  /** Prints one page (the first page's other members, e.g. `miner`, go out with it in JSON). */
  page(data: ApiData, items: readonly unknown[]): void;
  /** Closes the output (the JSON document); called after the last page or an interrupt. */
  end(): void;
}

/**
 * A printer for `--all`: NDJSON lines, table rows (header once, widths fixed by the first page), or one JSON
 * document streamed as `{ "<listKey>": [ … ] }` so memory stays flat and an interrupt still leaves valid JSON.
 * @example const p = createListPrinter(opts, 'blocks', BLOCK_COLUMNS); p.page(data, items); p.end();
 */
export function createListPrinter(
  opts: OutputOptions,
  listKey: string,
  columns: readonly Column[],
): ListPrinter {
  let started = false;
  let count = 0;
  let widths: number[] | null = null;
  return {
    page(data, items) {
      if (opts.format === 'ndjson') {
        for (const item of items) opts.out.write(`${JSON.stringify(item)}\n`);
      } else if (opts.format === 'json') {
        if (!started) {
          const { pagination: _p, [listKey]: _list, ...others } = data;
          const head = JSON.stringify(others).slice(0, -1);
          opts.out.write(`${head}${head.length > 1 ? ',' : ''}${JSON.stringify(listKey)}:[`);
        }
        for (const item of items) opts.out.write(`${count++ > 0 ? ',' : ''}\n${JSON.stringify(item)}`);
      } else {
        if (!started) {
          const { pagination: _p, [listKey]: _list, ...others } = data;
          if (Object.keys(others).length > 0) opts.out.write(`${renderRecord(others, opts.baseUnits)}\n\n`);
        }
        const head = columns.map((c) => c.header);
        const body = cells(columns, items, opts.baseUnits);
        widths ??= fitWidths(head, body);
        if (!started || body.length > 0) {
          const text = render(started ? null : head, body, widths);
          if (text) opts.out.write(`${text}\n`);
        }
      }
      started = true;
    },
    end() {
      if (opts.format !== 'json') return;
      if (!started) opts.out.write(`{${JSON.stringify(listKey)}:[`);
      opts.out.write(`${count > 0 ? '\n' : ''}]}\n`);
    },
  };
}

/** Prints a whole answer in one format: JSON (the data), one NDJSON line (or one per item for lists). */
export function printData(opts: OutputOptions, data: ApiData, table: () => string, listKey?: string): void {
  if (opts.format === 'json') {
    opts.out.write(`${JSON.stringify(data, null, 2)}\n`);
  } else if (opts.format === 'ndjson') {
    const list = listKey?.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], data);
    if (Array.isArray(list)) for (const item of list) opts.out.write(`${JSON.stringify(item)}\n`);
    else opts.out.write(`${JSON.stringify(data)}\n`);
  } else {
    opts.out.write(`${table()}\n`);
  }
}
