import { BadRequestError } from '../errors.js';

/** The message every bad cursor gets, as the contract words it. */
export const INVALID_CURSOR = 'cursor must be a valid pagination cursor';

/** A keyset position: the sort key values of the last row of a page. */
export type CursorKey = readonly (string | number)[];

// FNV-1a over the scope and payload: catches edited, truncated or foreign cursors without a server secret,
// so any replica can read a cursor another one wrote.
function checksum(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

const toB64Url = (s: string) =>
  btoa(unescape(encodeURIComponent(s)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const fromB64Url = (s: string) => decodeURIComponent(escape(atob(s.replace(/-/g, '+').replace(/_/g, '/'))));

/**
 * Encodes a keyset position as an opaque cursor bound to one list (its scope, e.g. `blocks` or
 * `address-txs:<address>`), so a cursor of one list is refused by every other.
 * @example encodeCursor('blocks', [812345])
 */
export function encodeCursor(scope: string, key: CursorKey): string {
  const payload = JSON.stringify(key);
  return toB64Url(`${checksum(`${scope}\n${payload}`)}.${payload}`);
}

/**
 * Decodes a cursor of the given scope, checking its shape against `types`; anything else is a 400 with the
 * contract's message.
 */
export function decodeCursor(
  scope: string,
  cursor: string,
  types: readonly ('string' | 'number')[],
): CursorKey {
  let text: string;
  try {
    if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) throw new Error('charset');
    text = fromB64Url(cursor);
  } catch {
    throw new BadRequestError(INVALID_CURSOR);
  }
  const dot = text.indexOf('.');
  const sum = text.slice(0, dot);
  const payload = text.slice(dot + 1);
  if (dot < 1 || checksum(`${scope}\n${payload}`) !== sum) throw new BadRequestError(INVALID_CURSOR);
  let key: unknown;
  try {
    key = JSON.parse(payload);
  } catch {
    throw new BadRequestError(INVALID_CURSOR);
  }
  if (!Array.isArray(key) || key.length !== types.length) throw new BadRequestError(INVALID_CURSOR);
  key.forEach((v, i) => {
    const ok =
      types[i] === 'number' ? Number.isSafeInteger(v) && v >= -1 : typeof v === 'string' && v.length <= 128;
    if (!ok) throw new BadRequestError(INVALID_CURSOR);
  });
  return key as CursorKey;
}
