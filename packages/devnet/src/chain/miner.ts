import {
  blockWork,
  compactToTarget,
  decodeTx,
  encodePearlHeader,
  fromDisplayHex,
  merkleRoot,
  PEARL_NETWORKS,
  ratioDifficulty,
  sha256d,
  type Tx,
  type TxInput,
  targetToCompact,
  toDisplayHex,
} from '@explorer/chain';
import { POW_LIMIT_BITS, serializeBlock, serializeHeader } from './block.js';
import {
  type CertificateForks,
  type CertificatePlan,
  certificateSize,
  certificateVersion,
  genesisCertificate,
  headerCommitment,
  planCertificate,
} from './certificate.js';
import type { Dialect } from './dialect.js';
import { makeEntry, type PlannedOutput } from './entry.js';
import type { KeyRing } from './keys.js';
import type { MinerSet } from './pools.js';
import type { Rng } from './rng.js';
import { pushData, pushNumber } from './script.js';
import type { ChainState, Cumulative, StoredBlock, TxEntry } from './state.js';
import type { Wallet } from './wallet.js';

/** Consensus-ish parameters the block maker needs. */
export interface MinerParams {
  genesisTime: number;
  targetSpacing: number;
  retargetInterval: number;
  proofSize: [number, number];
  forks: CertificateForks;
  /** Named in the genesis coinbase, so each seed is a chain of its own. */
  seed: string;
}

const ZERO32 = Buffer.alloc(32);
/** pearld's regtest pow limit: the devnet's Pearl chain is mined against it. */
export const PEARL_DEVNET_POW_LIMIT = PEARL_NETWORKS.regtest.powLimitBits;
/** Blocks over which a Pearl retarget spreads the error of one block interval (a WTEMA-like smoothing). */
const PEARL_SMOOTHING = 72;

/** Builds coinbases, headers and certificates, and connects blocks made of mempool entries. */
export class BlockMaker {
  private readonly powLimitBits: number;

  constructor(
    private readonly state: ChainState,
    private readonly keys: KeyRing,
    private readonly rng: Rng,
    private readonly params: MinerParams,
    private readonly miners: MinerSet,
    private readonly wallet: Wallet,
    private readonly attribute: (addresses: string[], scriptSig: Uint8Array) => string,
    private readonly dialect: Dialect,
  ) {
    this.powLimitBits = dialect.name === 'pearl' ? PEARL_DEVNET_POW_LIMIT : POW_LIMIT_BITS;
  }

  /** The difficulty a node of this dialect reports for these bits. */
  difficulty(bits: number): number {
    return ratioDifficulty(this.powLimitBits, bits);
  }

  // Simulated network hashrate in difficulty-1 units: grows then wobbles, so retargets visibly move difficulty.
  private hashrate(h: number): number {
    const r = this.params.retargetInterval;
    return 1 + 2.5 * (1 - Math.exp(-h / (r * 15))) + 0.4 * Math.sin(h / (r * 4));
  }

  private nextBits(h: number, prev: StoredBlock | undefined): number {
    if (!prev) return this.powLimitBits;
    const limit = compactToTarget(this.powLimitBits);
    const spacing = this.params.targetSpacing;
    let target: bigint;
    if (this.dialect.name === 'pearl') {
      // Pearl retargets every block: each interval moves the target by its error, smoothed over many blocks.
      const before = this.state.best[h - 2];
      const dt = before ? Math.max(1, Math.min(spacing * 6, prev.time - before.time)) : spacing;
      const n = BigInt(PEARL_SMOOTHING * spacing);
      target = (compactToTarget(prev.bits) * (n + BigInt(Math.round(dt - spacing)))) / n;
    } else {
      const r = this.params.retargetInterval;
      if (h % r !== 0) return prev.bits;
      const first = this.state.best[h - r];
      if (!first) return prev.bits;
      const span = r * spacing;
      const actual = Math.min(span * 4, Math.max(span / 4, prev.time - first.time));
      target = (compactToTarget(prev.bits) * BigInt(Math.round(actual))) / BigInt(span);
    }
    return targetToCompact(target > limit ? limit : target);
  }

  private nextTime(h: number, prev: StoredBlock | undefined, bits: number, forced?: number): number {
    if (!prev) return forced ?? this.params.genesisTime;
    const floor = prev.mediantime + 1;
    if (forced !== undefined) return Math.max(floor, forced);
    const mean = (this.params.targetSpacing * this.difficulty(bits)) / this.hashrate(h);
    const dt = Math.min(mean * 20, Math.max(1, Math.round(-Math.log(1 - this.rng.float()) * mean)));
    let t = prev.time + dt;
    // Real miners' clocks disagree a little: now and then a block is stamped before its parent.
    if (this.rng.chance(0.03)) t = prev.time - this.rng.range(1, 60);
    return Math.max(floor, Math.round(t));
  }

  private medianTime(h: number, time: number): number {
    const times = [time];
    for (let i = h - 1; i >= Math.max(0, h - 10); i--) times.push((this.state.best[i] as StoredBlock).time);
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)] as number;
  }

  // Pearl's genesis: its coinbase claims nothing (subsidy(0) = 0) and pays a zero OP_RETURN, as pearld's does.
  private genesisCoinbase(time: number): TxEntry {
    const tx: Tx = {
      version: 1,
      inputs: [
        {
          prevTxid: ZERO32,
          vout: 0xffffffff,
          scriptSig: Buffer.concat([
            Buffer.from('04ffff001d0104', 'hex'),
            pushData(
              Buffer.from(
                `explorer devnet ${this.params.seed}: a simulated Pearl chain`.slice(0, 75),
                'utf8',
              ),
            ),
          ]),
          sequence: 0xffffffff,
          witness: [],
        },
      ],
      outputs: [{ value: 0n, script: Buffer.from([0x6a]) }],
      locktime: 0,
    };
    return makeEntry(tx, [], [{ value: 0, script: Buffer.from([0x6a]) }], {
      fee: 0,
      time,
      height: 0,
      coinbase: true,
      isBurn: this.wallet.isBurn,
    });
  }

  private coinbase(h: number, reward: number, witnessRoot: Buffer | undefined, time: number): TxEntry {
    const rng = this.rng;
    const miner = this.miners.draw(rng);
    const tag = miner ? Buffer.from(miner.tag, 'utf8') : undefined;
    const scriptSig = Buffer.concat([
      pushNumber(h),
      ...(tag ? [pushData(tag)] : []),
      pushData(rng.bytes(rng.chance(0.5) ? 8 : 12)),
    ]);
    let payIds: number[];
    if (!miner || miner.freshPayout) payIds = [this.keys.fresh()];
    else if (miner.payoutIds.length > 1 && rng.chance(0.3)) payIds = miner.payoutIds;
    else payIds = [rng.pick(miner.payoutIds)];
    const outs: PlannedOutput[] = payIds.map((key, i) => {
      const value = i === payIds.length - 1 ? 0 : Math.floor(reward * 0.6);
      return { value, script: this.keys.info(key).script, key, pool: this.wallet.poolOf(key) };
    });
    let rest = reward;
    for (const o of outs.slice(0, -1)) rest -= o.value;
    (outs[outs.length - 1] as PlannedOutput).value = rest;
    if (witnessRoot) {
      const commitment = sha256d(witnessRoot, ZERO32);
      outs.push({
        value: 0,
        script: Buffer.concat([Buffer.from([0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed]), commitment]),
      });
    }
    const tx: Tx = {
      version: rng.chance(0.8) ? 2 : 1,
      inputs: [
        {
          prevTxid: ZERO32,
          vout: 0xffffffff,
          scriptSig,
          sequence: 0xffffffff,
          witness: witnessRoot ? [ZERO32] : [],
        },
      ],
      outputs: outs.map((o) => ({ value: BigInt(o.value), script: o.script })),
      locktime: 0,
    };
    return makeEntry(tx, [], outs, { fee: 0, time, height: h, coinbase: true, isBurn: this.wallet.isBurn });
  }

  // Headers of the ancestors a v4 certificate may carry, parent first.
  private ancestorHeaders(h: number, n: number): Buffer[] {
    const out: Buffer[] = [];
    for (let i = 1; i <= n && h - i >= 0; i++) {
      const b = this.state.best[h - i] as StoredBlock;
      out.push(b.raw.subarray(0, b.headerSize));
    }
    return out;
  }

  private certificate(h: number): CertificatePlan | undefined {
    if (this.dialect.name !== 'pearl') return undefined;
    if (h === 0) return genesisCertificate();
    const [parent] = this.ancestorHeaders(h, 1);
    return planCertificate(
      this.rng,
      certificateVersion(this.params.forks, h),
      this.params.proofSize,
      parent ?? null,
      Math.min(h, 2),
    );
  }

  /** Mines a block on the tip from the given (already applied, topologically ordered) mempool entries. */
  mine(txs: TxEntry[], opts: { time?: number; coinbase?: TxEntry; nonce?: number } = {}): StoredBlock {
    const state = this.state;
    const pearl = this.dialect.name === 'pearl';
    const prev = state.tip();
    const h = state.height + 1;
    const bits = this.nextBits(h, prev);
    const time = this.nextTime(h, prev, bits, opts.time);
    let fees = 0;
    let segwit = false;
    for (const e of txs) {
      fees += e.fee;
      if (e.segwit) segwit = true;
    }
    const subsidy = this.dialect.subsidy(h);
    // Now and then a Pearl miner claims less than the subsidy: that part is never emitted to anyone.
    const unclaimed = pearl && h > 0 && this.rng.chance(0.02) ? this.rng.range(1, Math.min(subsidy, 1e8)) : 0;
    // pearld commits to the witnesses in every block it mines, a coinbase-only one included.
    const witnessRoot =
      segwit || (pearl && h > 0)
        ? merkleRoot([ZERO32, ...txs.map((e) => fromDisplayHex(e.wtxid))])
        : undefined;
    const cb =
      opts.coinbase ??
      (pearl && h === 0
        ? this.genesisCoinbase(time)
        : this.coinbase(h, subsidy - unclaimed + fees, witnessRoot, time));
    const entries = [cb, ...txs];
    const root = merkleRoot(entries.map((e) => fromDisplayHex(e.txid)));
    const version = this.rng.chance(0.3) ? (0x20000000 | (this.rng.u32() & 0x1fffe000)) >>> 0 : 0x20000000;
    const certificate = this.certificate(h);
    const prevHash = prev ? prev.hash : '0'.repeat(64);
    let header: Buffer;
    let nonce: number | null = null;
    if (certificate) {
      header = encodePearlHeader({
        version: h === 0 ? 1 : version | 0,
        prevHash,
        merkleRoot: toDisplayHex(root),
        time,
        bits,
        proofCommitment: headerCommitment(certificate),
      });
    } else {
      nonce = opts.nonce ?? this.rng.u32();
      header = serializeHeader({
        version,
        prev: fromDisplayHex(prevHash),
        merkleRoot: root,
        time,
        bits,
        nonce,
      });
    }
    const hash = toDisplayHex(sha256d(header));
    const { raw, offsets } = serializeBlock(
      new Uint8Array(0),
      header,
      entries.map((e) => e.bytes),
    );
    let witnessBytes = 0;
    const feeArr = new Float64Array(entries.length);
    entries.forEach((e, i) => {
      e.bytes = raw.subarray(offsets[i], offsets[i + 1]);
      witnessBytes += e.size - (e.weight - e.size) / 3;
      feeArr[i] = e.fee;
    });
    const cbAddresses = cb.created.map((c) => this.dialect.address(this.keys.info(c.key).script) as string);
    const coinbaseScript = (decodeTx(cb.bytes).inputs[0] as TxInput).scriptSig;
    const p = prev?.cum;
    let dOpReturn = 0n;
    let dUtxoValue = 0n;
    let dUtxoCount = 0;
    let dBurn = 0n;
    for (const e of entries) {
      dOpReturn += BigInt(e.opReturnValue);
      dUtxoValue += BigInt(e.outValue - e.inValue);
      dUtxoCount += e.outCount - e.inCount;
      dBurn += BigInt(e.burnValue);
    }
    const cum: Cumulative = {
      txs: (p?.txs ?? 0) + entries.length,
      emitted: (p?.emitted ?? 0n) + BigInt(subsidy),
      unclaimed: (p?.unclaimed ?? 0n) + BigInt(unclaimed),
      fees: (p?.fees ?? 0n) + BigInt(fees),
      opReturn: (p?.opReturn ?? 0n) + dOpReturn,
      utxoValue: (p?.utxoValue ?? 0n) + dUtxoValue,
      utxoCount: (p?.utxoCount ?? 0) + dUtxoCount,
      burn: (p?.burn ?? 0n) + dBurn,
    };
    const strippedSize = raw.length - witnessBytes;
    const block: StoredBlock = {
      seq: state.all.length,
      hash,
      height: h,
      prevHash: prev?.hash,
      version: header.readInt32LE(0),
      merkleRoot: toDisplayHex(root),
      time,
      bits,
      nonce,
      mediantime: this.medianTime(h, time),
      raw,
      headerSize: header.length,
      offsets,
      txids: entries.map((e) => e.txid),
      fees: feeArr,
      size: raw.length + (certificate ? certificateSize(certificate, h) : 0),
      strippedSize,
      weight: strippedSize * 3 + raw.length,
      chainwork: (prev?.chainwork ?? 0n) + blockWork(bits),
      subsidy,
      unclaimed,
      totalFees: fees,
      pool: this.attribute(cbAddresses, coinbaseScript),
      miner: cbAddresses[0],
      certificate,
      cum,
      entries: undefined,
    };
    state.connect(block, entries);
    return block;
  }
}
