/** Options of createDevnet; see docs/devnet.md. */
export interface DevnetOptions {
  /** Same seed + options → byte-identical chain. Default 'explorer'. */
  seed?: string | number;
  /** Blocks mined after genesis at creation, so the initial height equals this. Default 200. */
  blocks?: number;
  /** Average non-coinbase txs per block (varies per block). Default 8. */
  txPerBlock?: number;
  /** Unix seconds of block 0. Default 1_700_000_000. */
  genesisTime?: number;
  /** Mean seconds between blocks before difficulty catches up with hashrate. Default 150. */
  targetSpacing?: number;
  /** Blocks between subsidy halvings. Default 1000. */
  halvingInterval?: number;
  /** Confirmations before a coinbase output may be spent. Default 100. */
  coinbaseMaturity?: number;
  /** Blocks between difficulty retargets. Default 144. */
  retargetInterval?: number;
  /** Fraction of blocks carrying a certificate. Default 0.6. */
  certificateRate?: number;
  /** Min and max certificate proof bytes (max ≤ 60_000). Default [8_000, 60_000]. */
  proofSize?: [number, number];
  /** Number of exchange-like addresses that take part in a large share of txs. Default 3. */
  busyAddresses?: number;
  /** scriptPubKey.address (Core ≥ 22) or legacy addresses[] + reqSigs (Core ≤ 0.21). Default 'address'. */
  addressFormat?: 'address' | 'addresses';
  /** Include `fee` on non-coinbase txs in getblock verbosity 2. Default true. */
  includeFee?: boolean;
  /** Target number of unconfirmed txs kept in the mempool. Default 20. */
  mempoolSize?: number;
}

/** Fills defaults and validates ranges. */
export function resolveOptions(o: DevnetOptions = {}): Required<DevnetOptions> {
  const r: Required<DevnetOptions> = {
    seed: o.seed ?? 'explorer',
    blocks: o.blocks ?? 200,
    txPerBlock: o.txPerBlock ?? 8,
    genesisTime: o.genesisTime ?? 1_700_000_000,
    targetSpacing: o.targetSpacing ?? 150,
    halvingInterval: o.halvingInterval ?? 1000,
    coinbaseMaturity: o.coinbaseMaturity ?? 100,
    retargetInterval: o.retargetInterval ?? 144,
    certificateRate: o.certificateRate ?? 0.6,
    proofSize: o.proofSize ?? [8_000, 60_000],
    busyAddresses: o.busyAddresses ?? 3,
    addressFormat: o.addressFormat ?? 'address',
    includeFee: o.includeFee ?? true,
    mempoolSize: o.mempoolSize ?? 20,
  };
  const int = (name: keyof DevnetOptions, v: number, min: number) => {
    if (!Number.isInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}`);
  };
  int('blocks', r.blocks, 0);
  int('genesisTime', r.genesisTime, 0);
  int('targetSpacing', r.targetSpacing, 1);
  int('halvingInterval', r.halvingInterval, 1);
  int('coinbaseMaturity', r.coinbaseMaturity, 0);
  int('retargetInterval', r.retargetInterval, 1);
  int('busyAddresses', r.busyAddresses, 0);
  int('mempoolSize', r.mempoolSize, 0);
  if (!(r.txPerBlock >= 0)) throw new RangeError('txPerBlock must be >= 0');
  if (!(r.certificateRate >= 0 && r.certificateRate <= 1))
    throw new RangeError('certificateRate must be in [0, 1]');
  const [min, max] = r.proofSize;
  if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 0 && min <= max && max <= 60_000))
    throw new RangeError('proofSize must be [min, max] integers with 0 <= min <= max <= 60000');
  return r;
}
