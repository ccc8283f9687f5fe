/**
 * Encoding of rows in PostgreSQL's COPY text format: tab-separated columns, `\N` for null, backslash escapes
 * for backslash, newline, carriage return and tab. Strings go out as they are otherwise, so JSON text costs
 * one scan instead of the quoting an array literal needs.
 */

const SPECIAL = /[\\\n\r\t]/;
const SPECIAL_ALL = /[\\\n\r\t]/g;
const CONTROL = /[\n\r\t]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value as COPY text. */
export function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  switch (typeof v) {
    case 'string':
      if (!SPECIAL.test(v)) return v;
      // Most strings that need escaping are bytes in PostgreSQL's hex input (`\x…`, the bulk rows' bytea
      // columns), whose one special character is the backslash they start with.
      if (v.charCodeAt(0) === 92 && v.indexOf('\\', 1) === -1 && !CONTROL.test(v)) return `\\${v}`;
      return v.replace(SPECIAL_ALL, (c) => ESCAPES[c]!);
    case 'number':
      if (Number.isNaN(v)) return 'NaN';
      if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
      return String(v);
    case 'boolean':
      return v ? 't' : 'f';
    case 'bigint':
      return v.toString();
    default:
      if (v instanceof Uint8Array) return `\\\\x${Buffer.from(v).toString('hex')}`;
      throw new TypeError(`COPY cannot encode a value of type ${typeof v}`);
  }
}

/** Rows as COPY text, in pieces of about `pieceSize` characters. */
export function* copyText(rows: readonly (readonly unknown[])[], pieceSize = 1 << 20): Generator<string> {
  let piece = '';
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < row.length; i++) line += (i === 0 ? '' : '\t') + copyValue(row[i]);
    piece += `${line}\n`;
    if (piece.length >= pieceSize) {
      yield piece;
      piece = '';
    }
  }
  if (piece) yield piece;
}
