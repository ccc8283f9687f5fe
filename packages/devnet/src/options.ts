import type { CertificateForks } from './chain/certificate.js';
import type { DialectName } from './chain/dialect.js';

/** Options of createDevnet; see docs/devnet.md. */
export interface DevnetOptions {
  /**
   * Which node to imitate: `pearl` (pearld: certificate-first block bytes, 108-byte headers, P2TR/P2MR outputs on
   * rprl addresses, Pearl's emission, `rawtx`) or `bitcoin` (Bitcoin Core, no certificates). Default 'pearl'.
   */
  dialect?: DialectName;
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
  /** Bitcoin dialect: blocks between subsidy halvings. Default 1000. (Pearl has no halvings.) */
  halvingInterval?: number;
  /** Confirmations before a coinbase output may be spent. Default 100. */
  coinbaseMaturity?: number;
  /** Bitcoin dialect: blocks between difficulty retargets. Default 144. (Pearl retargets every block.) */
  retargetInterval?: number;
  /** Pearl: heights from which blocks carry certificate versions 2 (MoE), 3 and 4. Default { moe: 25, saltedSeed: 50, fp8: 75 }. */
  certificateForks?: CertificateForks;
  /** Pearl: min and max certificate proof bytes (max ≤ 60_000). Default [8_000, 60_000]. */
  proofSize?: [number, number];
  /** Number of exchange-like addresses that take part in a large share of txs. Default 3. */
  busyAddresses?: number;
  /** scriptPubKey.address (Core ≥ 22) or legacy addresses[] + reqSigs (Core ≤ 0.21). Default 'address'. */
  addressFormat?: 'address' | 'addresses';
  /** Include `fee` on non-coinbase txs in getblock verbosity 2. Default true. */
  includeFee?: boolean;
  /** Target number of unconfirmed txs kept in the mempool. Default 20. */
  mempoolSize?: number;
  /**
   * An HD wallet the simulated users pay: an extended public key or a descriptor (docs/wallets.md) of the
   * dialect's chain (Pearl: rprl, a vpub or tpub, taproot; Bitcoin: dvt, a tpub/upub/vpub or a descriptor).
   * Once coins are spendable, one payment per block goes to each of its first receive and change addresses in
   * turn (`hdWalletAddresses`). Default null: none, and the seed makes the chain it always made.
   */
  hdWallet?: string | null;
  /**
   * How many receive and change addresses of `hdWallet` get paid, one per block in turn (default [10, 5]): a
   * wallet of many used addresses for benchmarks needs as many blocks.
   */
  hdWalletAddresses?: [receive: number, change: number];
}

/** Fills defaults and validates ranges. */
export function resolveOptions(o: DevnetOptions = {}): Required<DevnetOptions> {
  const r: Required<DevnetOptions> = {
    dialect: o.dialect ?? 'pearl',
    seed: o.seed ?? 'explorer',
    blocks: o.blocks ?? 200,
    txPerBlock: o.txPerBlock ?? 8,
    genesisTime: o.genesisTime ?? 1_700_000_000,
    targetSpacing: o.targetSpacing ?? 150,
    halvingInterval: o.halvingInterval ?? 1000,
    coinbaseMaturity: o.coinbaseMaturity ?? 100,
    retargetInterval: o.retargetInterval ?? 144,
    certificateForks: o.certificateForks ?? { moe: 25, saltedSeed: 50, fp8: 75 },
    proofSize: o.proofSize ?? [8_000, 60_000],
    busyAddresses: o.busyAddresses ?? 3,
    addressFormat: o.addressFormat ?? 'address',
    includeFee: o.includeFee ?? true,
    mempoolSize: o.mempoolSize ?? 20,
    hdWallet: o.hdWallet ?? null,
    hdWalletAddresses: o.hdWalletAddresses ?? [10, 5],
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
  const [receive, change] = r.hdWalletAddresses;
  if (![receive, change].every((n) => Number.isInteger(n) && n >= 0 && n <= 100_000))
    throw new RangeError('hdWalletAddresses must be [receive, change] integers from 0 to 100000');
  if (!(r.txPerBlock >= 0)) throw new RangeError('txPerBlock must be >= 0');
  if (r.dialect !== 'pearl' && r.dialect !== 'bitcoin')
    throw new RangeError("dialect must be 'pearl' or 'bitcoin'");
  const f = r.certificateForks;
  if (
    !(
      Number.isInteger(f.moe) &&
      f.moe >= 1 &&
      f.saltedSeed >= f.moe &&
      f.fp8 >= f.saltedSeed &&
      Number.isInteger(f.fp8)
    )
  )
    throw new RangeError('certificateForks must be integer heights with 1 <= moe <= saltedSeed <= fp8');
  const [min, max] = r.proofSize;
  if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 0 && min <= max && max <= 60_000))
    throw new RangeError('proofSize must be [min, max] integers with 0 <= min <= max <= 60000');
  return r;
}
