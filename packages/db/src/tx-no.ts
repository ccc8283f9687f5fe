/**
 * A transaction's number: its place in the chain, `height × 2^24 + index in block`. It keys every bulk table
 * (transactions, outputs, inputs, address history), so rows are appended in key order and a block's rows are
 * one key range. Exact as a JavaScript number up to height 2^29.
 */
export const TX_INDEX_BITS = 24;

/** How many transaction numbers a block spans. */
export const TXS_PER_BLOCK = 2 ** TX_INDEX_BITS;

/** The number of the transaction at `index` in the block at `height`. */
export function txNo(height: number, index: number): number {
  if (index >= TXS_PER_BLOCK)
    throw new RangeError(`block ${height} has more than ${TXS_PER_BLOCK} transactions`);
  return height * TXS_PER_BLOCK + index;
}

/**
 * The transaction number a cursor's `(height, index)` stands for, as int8 text (exact for any int4 height).
 * An index outside a block's range (a crafted cursor) is clamped so that it still orders as itself: past
 * every transaction of its block, or before the first.
 */
export function cursorTxNo(height: number, index: number): string {
  const i = Math.min(Math.max(Math.trunc(index), -1), TXS_PER_BLOCK);
  return (BigInt(Math.trunc(height)) * BigInt(TXS_PER_BLOCK) + BigInt(i)).toString();
}

/** SQL: the block height of a transaction number column. */
export const heightOf = (col: string) => `(${col} >> ${TX_INDEX_BITS})::int4`;

/** SQL: the index in its block of a transaction number column. */
export const indexOf = (col: string) => `(${col} & ${TXS_PER_BLOCK - 1})::int4`;

/** SQL: the first transaction number above a block height given as a parameter or column (`$1`). */
export const firstTxNoAbove = (height: string) => `((${height})::int8 + 1) << ${TX_INDEX_BITS}`;

/** SQL: the first transaction number of a block height given as a parameter or column. */
export const firstTxNoOf = (height: string) => `(${height})::int8 << ${TX_INDEX_BITS}`;

/**
 * SQL: `col` (a stored txid) equals the txid given as hex in parameter `param`, found through the index on
 * its first 8 bytes.
 */
export const txidIs = (col: string, param: string) =>
  `substring(${col} FROM 1 FOR 8) = decode(substring(${param} FROM 1 FOR 16), 'hex') AND ${col} = decode(${param}, 'hex')`;

/**
 * SQL: the number of the transaction whose txid (hex) is in parameter `param`; null when none. Of two
 * transactions with one txid (Bitcoin's two duplicated coinbases, BIP30), the later one, as the node has it.
 */
export const txNoOfTxid = (param: string) =>
  `(SELECT tx_no FROM txs WHERE ${txidIs('txid', param)} ORDER BY tx_no DESC LIMIT 1)`;
