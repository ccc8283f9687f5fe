import {
  bitsToDifficulty,
  bitsToTarget,
  blockWork,
  merkleRoot,
  POW_LIMIT_BITS,
  serializeBlock,
  serializeHeader,
  targetToBits,
} from './block.js';
import { makeEntry, type PlannedOutput } from './entry.js';
import { fromDisplayHex, sha256, sha256d, toDisplayHex } from './hash.js';
import type { KeyRing } from './keys.js';
import type { MinerSet } from './pools.js';
import { fastBytes, type Rng } from './rng.js';
import { pushData, pushNumber, scriptAddress } from './script.js';
import type { CertificateMeta, ChainState, Cumulative, StoredBlock, TxEntry } from './state.js';
import type { Tx } from './tx.js';
import type { Wallet } from './wallet.js';

/** Consensus-ish parameters the block maker needs. */
export interface MinerParams {
  genesisTime: number;
  targetSpacing: number;
  halvingInterval: number;
  retargetInterval: number;
  certificateRate: number;
  proofSize: [number, number];
}

const INITIAL_SUBSIDY = 5_000_000_000;
const ZERO32 = Buffer.alloc(32);

/** Block subsidy at a height: 50 coins halving every interval, zero after 64 halvings (as Bitcoin). */
export function subsidyAt(height: number, halvingInterval: number): number {
  const halvings = Math.floor(height / halvingInterval);
  return halvings >= 64 ? 0 : Math.floor(INITIAL_SUBSIDY / 2 ** halvings);
}

/** Regenerates a certificate's proof bytes (cheap, so they are never stored). */
export function certificateProof(c: CertificateMeta): Buffer {
  return fastBytes(c.proofSeed, c.proofLength);
}

// Long-lived small buffers must not be slices of Node's shared allocation pool (they would pin 8 kB slabs).
function unpooled(b: Buffer): Buffer {
  const out = Buffer.allocUnsafeSlow(b.length);
  b.copy(out);
  return out;
}

/** Builds coinbases, headers and certificates, and connects blocks made of mempool entries. */
export class BlockMaker {
  constructor(
    private readonly state: ChainState,
    private readonly keys: KeyRing,
    private readonly rng: Rng,
    private readonly params: MinerParams,
    private readonly miners: MinerSet,
    private readonly wallet: Wallet,
    private readonly attribute: (addresses: string[], scriptSig: Uint8Array) => string,
  ) {}

  // Simulated network hashrate in difficulty-1 units: grows then wobbles, so retargets visibly move difficulty.
  private hashrate(h: number): number {
    const r = this.params.retargetInterval;
    return 1 + 2.5 * (1 - Math.exp(-h / (r * 15))) + 0.4 * Math.sin(h / (r * 4));
  }

  private nextBits(h: number, prev: StoredBlock | undefined): number {
    if (!prev) return POW_LIMIT_BITS;
    const r = this.params.retargetInterval;
    if (h % r !== 0) return prev.bits;
    const first = this.state.best[h - r];
    if (!first) return prev.bits;
    const span = r * this.params.targetSpacing;
    const actual = Math.min(span * 4, Math.max(span / 4, prev.time - first.time));
    let target = (bitsToTarget(prev.bits) * BigInt(Math.round(actual))) / BigInt(span);
    const limit = bitsToTarget(POW_LIMIT_BITS);
    if (target > limit) target = limit;
    return targetToBits(target);
  }

  private nextTime(h: number, prev: StoredBlock | undefined, bits: number, forced?: number): number {
    if (!prev) return forced ?? this.params.genesisTime;
    const floor = prev.mediantime + 1;
    if (forced !== undefined) return Math.max(floor, forced);
    const mean = (this.params.targetSpacing * bitsToDifficulty(bits)) / this.hashrate(h);
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

  private coinbase(h: number, fees: number, witnessRoot: Buffer | undefined, time: number): TxEntry {
    const rng = this.rng;
    const miner = this.miners.draw(rng);
    const tag = miner ? Buffer.from(miner.tag, 'utf8') : undefined;
    const scriptSig = Buffer.concat([
      pushNumber(h),
      ...(tag ? [pushData(tag)] : []),
      pushData(rng.bytes(rng.chance(0.5) ? 8 : 12)),
    ]);
    const reward = subsidyAt(h, this.params.halvingInterval) + fees;
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
      const commitment = sha256d(Buffer.concat([witnessRoot, ZERO32]));
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
      outputs: outs.map((o) => ({ value: o.value, script: o.script })),
      locktime: 0,
    };
    return makeEntry(tx, [], outs, { fee: 0, time, height: h, coinbase: true, isBurn: this.wallet.isBurn });
  }

  private certificate(): CertificateMeta | undefined {
    const rng = this.rng;
    if (!rng.chance(this.params.certificateRate)) return undefined;
    const [min, max] = this.params.proofSize;
    const meta: CertificateMeta = {
      version: 1 + rng.weighted([4, 3, 2, 1]),
      proofCommitment: '',
      publicData: unpooled(rng.bytes(rng.range(32, 320))),
      proofLength: rng.range(min, max),
      proofSeed: rng.u32(),
      isMoE: rng.chance(0.3),
    };
    meta.proofCommitment = sha256(certificateProof(meta)).toString('hex');
    return meta;
  }

  /** Mines a block on the tip from the given (already applied, topologically ordered) mempool entries. */
  mine(txs: TxEntry[], opts: { time?: number; coinbase?: TxEntry; nonce?: number } = {}): StoredBlock {
    const state = this.state;
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
    const witnessRoot = segwit ? merkleRoot([ZERO32, ...txs.map((e) => fromDisplayHex(e.wtxid))]) : undefined;
    const cb = opts.coinbase ?? this.coinbase(h, fees, witnessRoot, time);
    const entries = [cb, ...txs];
    const root = merkleRoot(entries.map((e) => fromDisplayHex(e.txid)));
    const version = this.rng.chance(0.3) ? (0x20000000 | (this.rng.u32() & 0x1fffe000)) >>> 0 : 0x20000000;
    const header = serializeHeader({
      version,
      prev: prev ? fromDisplayHex(prev.hash) : ZERO32,
      merkleRoot: root,
      time,
      bits,
      nonce: opts.nonce ?? this.rng.u32(),
    });
    const hash = toDisplayHex(sha256d(header));
    const { raw, offsets } = serializeBlock(
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
    const cbTx = cb.bytes;
    const cbAddresses = cb.created.map((c) => scriptAddress(this.keys.info(c.key).script) as string);
    const scriptSigStart = cbTx[4] === 0 ? 6 : 4;
    const scriptSigLen = cbTx[scriptSigStart + 37] as number;
    const cbScriptSig = cbTx.subarray(scriptSigStart + 38, scriptSigStart + 38 + scriptSigLen);
    const p = prev?.cum;
    let dOpReturn = 0;
    let dUtxoValue = 0;
    let dUtxoCount = 0;
    let dBurn = 0;
    for (const e of entries) {
      dOpReturn += e.opReturnValue;
      dUtxoValue += e.outValue - e.inValue;
      dUtxoCount += e.outCount - e.inCount;
      dBurn += e.burnValue;
    }
    const subsidy = subsidyAt(h, this.params.halvingInterval);
    const cum: Cumulative = {
      txs: (p?.txs ?? 0) + entries.length,
      emitted: (p?.emitted ?? 0) + subsidy,
      fees: (p?.fees ?? 0) + fees,
      opReturn: (p?.opReturn ?? 0) + dOpReturn,
      utxoValue: (p?.utxoValue ?? 0) + dUtxoValue,
      utxoCount: (p?.utxoCount ?? 0) + dUtxoCount,
      burn: (p?.burn ?? 0) + dBurn,
    };
    const strippedSize = raw.length - witnessBytes;
    const block: StoredBlock = {
      seq: state.all.length,
      hash,
      height: h,
      prevHash: prev?.hash,
      version,
      merkleRoot: toDisplayHex(root),
      time,
      bits,
      nonce: header.readUInt32LE(76),
      mediantime: this.medianTime(h, time),
      raw,
      offsets,
      txids: entries.map((e) => e.txid),
      fees: feeArr,
      size: raw.length,
      strippedSize,
      weight: strippedSize * 3 + raw.length,
      chainwork: (prev?.chainwork ?? 0n) + blockWork(bits),
      subsidy,
      totalFees: fees,
      pool: this.attribute(cbAddresses, cbScriptSig),
      miner: cbAddresses[0],
      certificate: this.certificate(),
      cum,
      entries: undefined,
    };
    state.connect(block, entries);
    return block;
  }
}
