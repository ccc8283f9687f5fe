import { heightOf, indexOf } from '../tx-no.js';
import { appendTable } from './append.js';

/** A block with its totals, attribution and the chain's running totals up to it. */
export interface BlockRow {
  height: number;
  hash: string;
  prevHash: string | null;
  time: number;
  medianTime: number;
  day: number;
  version: number;
  merkleRoot: string;
  bits: string;
  nonce: number | null;
  difficulty: number;
  chainwork: string;
  size: number;
  strippedSize: number | null;
  weight: number | null;
  txCount: number;
  inputCount: number;
  outputCount: number;
  /** What the coinbase claimed: reward − fees. */
  subsidy: bigint;
  /** What the emission schedule allows at this height (= subsidy when the chain's schedule is not known). */
  emission: bigint;
  fees: bigint;
  reward: bigint;
  valueOut: bigint;
  opReturnValue: bigint;
  minerAddress: string | null;
  poolId: string;
  coinbaseHex: string;
  coinbaseTag: string;
  hasCertificate: boolean;
  cumTxCount: number;
  cumEmitted: bigint;
  cumUnclaimed: bigint;
  cumFees: bigint;
  cumOpReturn: bigint;
  /** The node's JSON of the block, as text. */
  raw: string;
}

/** Every block, with totals derived from its transactions and running totals from the blocks before it. */
export const blocks = appendTable<'blocks', BlockRow>({
  key: 'blocks',
  table: 'blocks',
  columns: {
    height: 'int4',
    hash: 'text',
    prevHash: 'text',
    time: 'int8',
    medianTime: 'int8',
    day: 'int4',
    version: 'int8',
    merkleRoot: 'text',
    bits: 'text',
    nonce: 'int8',
    difficulty: 'float8',
    chainwork: 'text',
    size: 'int4',
    strippedSize: 'int4',
    weight: 'int4',
    txCount: 'int4',
    inputCount: 'int4',
    outputCount: 'int4',
    subsidy: 'int8',
    emission: 'int8',
    fees: 'int8',
    reward: 'int8',
    valueOut: 'int8',
    opReturnValue: 'int8',
    minerAddress: 'text',
    poolId: 'text',
    coinbaseHex: 'text',
    coinbaseTag: 'text',
    hasCertificate: 'bool',
    cumTxCount: 'int8',
    cumEmitted: 'int8',
    cumUnclaimed: 'int8',
    cumFees: 'int8',
    cumOpReturn: 'int8',
    raw: 'json',
  },
  above: 'height > $1',
  order: 'height',
  checks: [
    {
      name: 'no coinbase claims more than the emission schedule allows',
      sql: 'SELECT height, subsidy, emission FROM blocks WHERE subsidy > emission OR subsidy < 0 LIMIT 5',
    },
    {
      name: 'block totals equal their transactions, and running totals add up',
      sql: `SELECT b.height FROM blocks b
            JOIN (SELECT ${heightOf('tx_no')} AS block_height, count(*) AS n, sum(fee) AS fees,
                         sum(value_out) FILTER (WHERE ${indexOf('tx_no')} = 0) AS reward FROM txs GROUP BY 1) t
              ON t.block_height = b.height
            WHERE t.n <> b.tx_count OR t.fees <> b.fees OR t.reward <> b.reward OR b.subsidy <> b.reward - b.fees
            UNION ALL
            SELECT height FROM (
              SELECT height, cum_tx_count, cum_emitted, cum_unclaimed, cum_fees, cum_op_return,
                     sum(tx_count) OVER w AS a, sum(emission) OVER w AS b, sum(fees) OVER w AS c, sum(op_return_value) OVER w AS d,
                     sum(emission - subsidy) OVER w AS e
              FROM blocks WINDOW w AS (ORDER BY height)) x
            WHERE cum_tx_count <> a OR cum_emitted <> b OR cum_fees <> c OR cum_op_return <> d OR cum_unclaimed <> e
            UNION ALL
            SELECT b.height FROM blocks b LEFT JOIN blocks p ON p.height = b.height - 1
            WHERE b.height > (SELECT min(height) FROM blocks) AND (p.hash IS NULL OR b.prev_hash <> p.hash)
            LIMIT 5`,
    },
  ],
});
