export {
  blocksWithin,
  DEFAULT_BLOCK_SECONDS,
  DEFAULT_BLOCK_VSIZE,
  DEFAULT_MIN_RELAY_RATE,
  estimateFees,
  FEE_RECENT_BLOCKS,
  type FeeEstimateInput,
  type FeeTx,
} from './estimate.js';
