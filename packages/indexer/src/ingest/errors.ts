/** The blocks do not extend the indexed tip (a reorg happened, or another writer moved it). */
export class ChainMismatchError extends Error {
  override readonly name = 'ChainMismatchError';
}

/** A block spends an output the index does not hold as unspent: the node and the index disagree. */
export class MissingPrevoutError extends Error {
  override readonly name = 'MissingPrevoutError';
}

/** The node sent a block the indexer cannot read: not the block asked for, or bytes that do not decode. */
export class MalformedBlockError extends Error {
  override readonly name = 'MalformedBlockError';
}
