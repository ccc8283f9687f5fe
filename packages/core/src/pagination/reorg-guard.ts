import { BadRequestError } from '../errors.js';
import type { CursorKey } from './cursor.js';
import { type PageRequest, pageRequest } from './params.js';

const GUARD_LENGTH = 16;

/**
 * Adds the reorg guard to a keyset position whose first element is a block height: a prefix of the hash of
 * the block at that height, checked when the cursor comes back.
 */
export function guardedKey(key: CursorKey, blockHash: string): CursorKey {
  return [...key, blockHash.slice(0, GUARD_LENGTH)];
}

/** What a reorg guard asks of the index (the Store's blockHashAt): the hash of the block at a height. */
export interface BlockHashes {
  blockHashAt(height: number): Promise<string | null>;
}

/**
 * Reads the page request of a newest-first list keyed by block height. When the block at the cursor's height
 * is no longer the one the cursor was issued on, the chain reorganised below the client's position and the next
 * page could repeat or skip rows, so the request is refused with a 400 asking to start again; a reorg above
 * the position changes nothing below it and paging goes on.
 */
export async function guardedPageRequest(
  store: BlockHashes,
  q: { limit?: number; cursor?: string; offset?: number },
  scope: string,
  keyTypes: readonly ('string' | 'number')[],
): Promise<PageRequest> {
  const req = pageRequest(q, scope, [...keyTypes, 'string']);
  if (!req.after) return req;
  const height = req.after[0] as number;
  const guard = req.after[req.after.length - 1] as string;
  const hash = await store.blockHashAt(height);
  if (hash === null || !hash.startsWith(guard)) {
    throw new BadRequestError(
      `the chain reorganised at or below height ${height} after this cursor was issued; start again from the first page`,
    );
  }
  return { ...req, after: req.after.slice(0, -1) };
}
