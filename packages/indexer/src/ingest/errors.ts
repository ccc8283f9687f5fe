/** The blocks do not extend the indexed tip (a reorg happened, or another writer moved it). */
export class ChainMismatchError extends Error {
  override readonly name = 'ChainMismatchError';
}

// Raised by the spends table's write as well as by prepare, so it is the database package's class.
export { MissingPrevoutError } from '@explorer/db';

/** The node sent a block the indexer cannot read: not the block asked for, or bytes that do not decode. */
export class MalformedBlockError extends Error {
  override readonly name = 'MalformedBlockError';
}
