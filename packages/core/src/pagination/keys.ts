// The cursor key of every list: its columns, order and reorg guard, declared once. The route that serves a
// list, the Store that reads it and the keyset SQL that pages it all follow from the key; it sits below both
// the routes and the Store, so neither imports the other to name it.
import {
  AddressMempoolTxSchema,
  AddressTxSchema,
  FlowRowSchema,
  MultiAddressTxSchema,
  MultiAddressUtxoSchema,
  UtxoSchema,
} from '../schemas/address.js';
import { BlockSchema, InputSchema, OutputSchema } from '../schemas/block.js';
import { MinerSchema, PayoutOutputSchema } from '../schemas/mining.js';
import { OutspendSchema, TxSchema, TxWithCounterpartiesSchema } from '../schemas/tx.js';
import { cursorKey } from './cursor-key.js';

/** Blocks newest first (also a miner's blocks); cursors carry the block's hash as reorg guard. */
export const blocksKey = cursorKey(BlockSchema, ['height'], { order: 'desc', guard: 'hash' });

/** A block's transactions in block order, coinbase first. */
export const blockTxsKey = cursorKey(TxSchema, ['blockIndex'], { order: 'asc' });

/** Outputs created in a block, in block order: transaction position, then output index. */
export const blockOutputsKey = cursorKey(OutputSchema, ['blockIndex', 'vout'], { order: 'asc' });

/** Transactions newest first, by block position; cursors carry the block's hash as reorg guard. */
export const txsKey = cursorKey(TxWithCounterpartiesSchema, ['blockHeight', 'blockIndex'], {
  order: 'desc',
  guard: 'blockHash',
});

/** A transaction's inputs in order. */
export const txInputsKey = cursorKey(InputSchema, ['vin'], { order: 'asc' });

/** A transaction's outputs in order. */
export const txOutputsKey = cursorKey(OutputSchema, ['vout'], { order: 'asc' });

/** The spend state of a transaction's outputs, in output order. */
export const txOutspendsKey = cursorKey(OutspendSchema, ['vout'], { order: 'asc' });

/** An address's transactions newest first, by block position; cursors carry the block's hash as reorg guard. */
export const addressTxsKey = cursorKey(AddressTxSchema, ['blockHeight', 'blockIndex'], {
  order: 'desc',
  guard: 'blockHash',
});

/** An address's unspent outputs newest first, by creating position; guarded like the history. */
export const addressUtxosKey = cursorKey(UtxoSchema, ['blockHeight', 'blockIndex', 'vout'], {
  order: 'desc',
  guard: 'blockHash',
});

/** An address's flow rows newest first, by block position; guarded like the history. */
export const addressFlowsKey = cursorKey(FlowRowSchema, ['blockHeight', 'blockIndex'], {
  order: 'desc',
  guard: 'blockHash',
});

/**
 * An address's mempool transactions newest first, by the time the node first saw them, then txid. Not guarded:
 * mempool rows belong to no block; a cursor still works after its row left the mempool (the key is a position).
 */
export const addressMempoolKey = cursorKey(AddressMempoolTxSchema, ['firstSeen', 'txid'], { order: 'desc' });

/** The merged history, newest first by block position; one row per transaction however many addresses it touched. */
export const multiAddressTxsKey = cursorKey(MultiAddressTxSchema, ['blockHeight', 'blockIndex'], {
  order: 'desc',
  guard: 'blockHash',
});

/**
 * The merged unspent outputs, newest first by creating position as the single-address list: an output pays one
 * address, so the position alone orders the merged list without a tiebreak.
 */
export const multiAddressUtxosKey = cursorKey(MultiAddressUtxoSchema, ['blockHeight', 'blockIndex', 'vout'], {
  order: 'desc',
  guard: 'blockHash',
});

/** Payout addresses by mined blocks, most first; ties by address, last first. */
export const topMinersKey = cursorKey(MinerSchema, ['blocks', 'address'], { order: 'desc' });

/** Coinbase outputs of a pool's blocks newest first, by height then output; cursors carry the block's hash as reorg guard. */
export const poolPayoutsKey = cursorKey(PayoutOutputSchema, ['blockHeight', 'vout'], {
  order: 'desc',
  guard: 'blockHash',
});
