import { z } from 'zod';
import type { Pagination } from '../envelope.js';
import { BadRequestError } from '../errors.js';
import { type CursorKey, decodeCursor, encodeCursor } from './cursor.js';

/** Deepest legacy offset accepted; deeper pages must use cursors. */
export const MAX_OFFSET = 10_000;

/**
 * An integer query parameter from `min` to `max`, parsed from its text (so `limit=abc` and `limit=1.5` get the
 * same message as `limit=0`). The document shows the integer it means, through its meta (see openapi.ts).
 */
export const intString = (name: string, min: number, max: number, fallback?: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be an integer from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be an integer from ${min} to ${max}`)
    .meta({
      type: 'integer',
      minimum: min,
      maximum: max,
      ...(fallback === undefined ? {} : { default: fallback }),
    });

/** The common list parameters: limit (1–100, default 20), cursor, and the legacy offset (0–10,000). */
export const pageQuery = {
  limit: intString('limit', 1, 100, 20).optional().describe('Page size, 1 to 100 (default 20).'),
  cursor: z
    .string()
    .max(512, 'cursor must be a valid pagination cursor')
    .optional()
    .describe('Value of a previous pagination.nextCursor; omit on the first request.'),
  // No documented default: a form that pre-fills it would send it beside a cursor, which is refused. Not
  // marked deprecated either: the contract still accepts it, and validating proxies refuse deprecated
  // parameters (Prism answers 422).
  offset: intString('offset', 0, MAX_OFFSET)
    .optional()
    .describe(
      `Legacy: rows to skip (0 to ${MAX_OFFSET}). Discouraged; use cursor. Not combinable with cursor.`,
    ),
};

/**
 * What a store list method receives: a page size and either a keyset position (of the list's cursor key, see
 * cursor-key.ts) or a legacy offset.
 */
export interface PageRequest<K extends CursorKey = CursorKey> {
  limit: number;
  after: K | null;
  offset: number;
}

/** Turns the parsed list parameters into a page request, decoding the cursor against the list's scope. */
export function pageRequest(
  q: { limit?: number; cursor?: string; offset?: number },
  scope: string,
  keyTypes: readonly ('string' | 'number')[],
): PageRequest {
  if (q.cursor !== undefined && q.offset !== undefined)
    throw new BadRequestError('use either cursor or offset, not both');
  return {
    limit: q.limit ?? 20,
    after: q.cursor === undefined ? null : decodeCursor(scope, q.cursor, keyTypes),
    offset: q.offset ?? 0,
  };
}

/**
 * Cuts the rows a store returned (at least `limit + 1` where that many exist) into a page and its pagination
 * object (a row past the page only tells that a next page exists).
 */
export function toPage<T>(
  rows: T[],
  req: PageRequest,
  q: { cursor?: string; offset?: number },
  scope: string,
  keyOf: (row: T) => CursorKey,
): { items: T[]; pagination: Pagination } {
  const hasMore = rows.length > req.limit;
  const items = hasMore ? rows.slice(0, req.limit) : rows;
  const last = items[items.length - 1];
  return {
    items,
    pagination: {
      limit: req.limit,
      cursor: q.cursor ?? null,
      ...(hasMore && last !== undefined ? { nextCursor: encodeCursor(scope, keyOf(last)) } : {}),
      hasMore,
      ...(q.offset !== undefined ? { offset: q.offset } : {}),
    },
  };
}
