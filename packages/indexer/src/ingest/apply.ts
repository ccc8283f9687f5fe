import { blockWork } from '@explorer/chain';
import type { Sql } from '@explorer/db';
import {
  type AddressDeltaRow,
  type AddressTxRow,
  type BlockRow,
  type CertificateRow,
  type DailyStatRow,
  type InputRow,
  insertAddressTxs,
  insertBlocks,
  insertCertificates,
  insertInputs,
  insertOutputs,
  insertTxs,
  lockTip,
  type MiningStatRow,
  markSpent,
  type OutputRow,
  readBalances,
  readPrevouts,
  readTipState,
  type SpendRow,
  setTip,
  type TipState,
  type TxRow,
  upsertAddresses,
  upsertDaily,
  upsertMinerStats,
  upsertPoolStats,
} from '@explorer/db';
import { coinbaseTag, type Definitions } from '../pools.js';
import { classifyTx, dayOf } from './classify.js';
import { ChainMismatchError, MissingPrevoutError } from './errors.js';
import type { ParsedBlock } from './parse.js';

interface AddressAcc {
  balance: bigint;
  received: bigint;
  sent: bigint;
  txs: number;
  utxo: number;
  firstH: number;
  firstT: number;
  lastH: number;
  lastT: number;
}

/** Everything one batch writes, computed before its transaction opens. */
export interface PreparedBatch {
  /** Position of the batch in its pipeline; caches keep what uncommitted batches touched. */
  seq: number;
  /** The tip the batch extends: its transaction refuses to run on any other. */
  parent: { height: number; hash: string | null };
  last: { height: number; hash: string };
  txCount: number;
  outputs: OutputRow[];
  spends: SpendRow[];
  txRows: TxRow[];
  inputRows: InputRow[];
  historyRows: AddressTxRow[];
  addressRows: AddressDeltaRow[];
  blockRows: BlockRow[];
  certRows: CertificateRow[];
  minerStats: MiningStatRow[];
  poolStats: MiningStatRow[];
  daily: DailyStatRow[];
  dailyPools: [number, string, number, bigint][];
  dailyMiners: [number, string, number][];
}

/** Sizes of the writer's caches. */
export interface IngestCacheOptions {
  /** Unspent outputs kept in memory so spends of recent outputs need no database read (default 300,000). */
  maxUtxos?: number;
  /** Address balances kept in memory (default 200,000). */
  maxBalances?: number;
}

interface CachedUtxo {
  address: string | null;
  value: bigint;
  seq: number;
  /** The output's row while its own batch is being prepared, so a spend in that batch writes it spent. */
  row: OutputRow | null;
}

interface CachedBalance {
  balance: bigint;
  seq: number;
}

/**
 * The writer's view of the chain ahead of the database: the tip the next batch extends, the unspent outputs
 * and balances recent batches made. Batch N+1 is prepared from it while batch N is being written; anything
 * not cached was committed earlier and is read from the database. An entry is only evicted once the batch
 * that last touched it has committed. After any failure the view is discarded, never repaired.
 */
export class IngestState {
  private tip: TipState | null = null;
  private readonly utxos = new Map<string, CachedUtxo>();
  private readonly balances = new Map<string, CachedBalance>();
  private nextSeq = 1;
  private committedSeq = 0;
  private readonly maxUtxos: number;
  private readonly maxBalances: number;

  constructor(opts: IngestCacheOptions = {}) {
    this.maxUtxos = opts.maxUtxos ?? 300_000;
    this.maxBalances = opts.maxBalances ?? 200_000;
  }

  /** Records that a batch committed, and trims the caches to their sizes. */
  committed(seq: number): void {
    this.committedSeq = Math.max(this.committedSeq, seq);
    trim(this.utxos, this.maxUtxos, this.committedSeq);
    trim(this.balances, this.maxBalances, this.committedSeq);
  }

  /**
   * Computes every row of a batch of consecutive blocks. `reader` answers for what is not cached; it must
   * see every committed batch (the pool, or the writing transaction itself).
   */
  async prepare(reader: Sql, blocks: ParsedBlock[], defs: Definitions): Promise<PreparedBatch> {
    if (blocks.length === 0) throw new Error('prepare needs at least one block');
    this.tip ??= await readTipState(reader);
    const tip = this.tip;
    const first = blocks[0]!;
    if (first.height !== tip.height + 1 || (tip.hash !== null && first.prevHash !== tip.hash)) {
      throw new ChainMismatchError(
        `block ${first.height} (${first.hash}) does not extend the indexed tip ${tip.height} (${tip.hash ?? 'none'})`,
      );
    }
    for (let i = 1; i < blocks.length; i++) {
      const b = blocks[i]!;
      const prev = blocks[i - 1]!;
      if (b.height !== prev.height + 1 || b.prevHash !== prev.hash) {
        throw new ChainMismatchError(
          `block ${b.height} does not link to block ${prev.height} in the same batch`,
        );
      }
    }
    const seq = this.nextSeq++;

    // 1. Outputs and spends in chain order: a spend of an output of this batch finds it in the cache and
    //    marks its row, so it is written spent; spends of older outputs are marked in the database.
    const outputs: OutputRow[] = [];
    const spends: SpendRow[] = [];
    const prevouts = new Map<string, { address: string | null; value: bigint }>();
    const misses: [txid: string, vout: number][] = [];
    const missKeys: string[] = [];
    for (const b of blocks) {
      for (const t of b.txs) {
        if (!t.isCoinbase) {
          for (const i of t.inputs) {
            if (i.prevTxid === null) continue;
            const vout = i.prevVout ?? 0;
            const key = `${i.prevTxid}:${vout}`;
            const c = this.utxos.get(key);
            if (c) {
              this.utxos.delete(key);
              prevouts.set(`${t.txid}:${i.vin}`, c);
              if (c.seq === seq && c.row) {
                c.row[9] = t.txid;
                c.row[10] = i.vin;
                c.row[11] = b.height;
                continue;
              }
            } else {
              misses.push([i.prevTxid, vout]);
              missKeys.push(`${t.txid}:${i.vin}`);
            }
            spends.push([i.prevTxid, vout, t.txid, i.vin, b.height]);
          }
        }
        for (const o of t.outputs) {
          const row: OutputRow = [
            t.txid,
            o.vout,
            b.height,
            t.index,
            o.address,
            o.value,
            o.scriptType,
            o.scriptHex,
            t.isCoinbase,
            null,
            null,
            null,
          ];
          outputs.push(row);
          this.utxos.set(`${t.txid}:${o.vout}`, { address: o.address, value: o.value, seq, row });
        }
      }
    }
    if (misses.length > 0) {
      const found = await readPrevouts(reader, misses);
      for (let k = 0; k < misses.length; k++) {
        const p = found[k];
        if (!p || p.spent) {
          const [txid, vout] = misses[k]!;
          throw new MissingPrevoutError(
            `input ${missKeys[k]} spends ${txid}:${vout}, which is not an unspent output of the index`,
          );
        }
        prevouts.set(missKeys[k]!, p);
      }
    }
    for (const o of outputs) {
      const c = this.utxos.get(`${o[0]}:${o[1]}`);
      if (c) c.row = null;
    }

    // 2. Per address running balances need the totals before this batch.
    const balances = new Map<string, bigint>();
    const unknown = new Set<string>();
    const want = (address: string | null) => {
      if (!address || balances.has(address) || unknown.has(address)) return;
      const c = this.balances.get(address);
      if (c) balances.set(address, c.balance);
      else unknown.add(address);
    };
    for (const o of outputs) want(o[4]);
    for (const p of prevouts.values()) want(p.address);
    if (unknown.size > 0) {
      const stored = await readBalances(reader, [...unknown]);
      for (const a of unknown) balances.set(a, stored.get(a) ?? 0n);
    }

    const txRows: TxRow[] = [];
    const inputRows: InputRow[] = [];
    const historyRows: AddressTxRow[] = [];
    const acc = new Map<string, AddressAcc>();
    const blockRows: BlockRow[] = [];
    const certRows: CertificateRow[] = [];
    const minerStats = new Map<string, MiningStatRow>();
    const poolStats = new Map<string, MiningStatRow>();
    const daily = new Map<number, DailyStatRow>();
    const dailyPools = new Map<string, [number, string, number, bigint]>();
    const dailyMiners = new Map<string, [number, string, number]>();
    let { cumTxCount, cumEmitted, cumUnclaimed, cumFees, cumOpReturn } = tip;
    // Median time past and cumulative work, for nodes that report neither (pearld).
    const times = [...tip.recentTimes];
    let work = tip.chainwork === null ? 0n : BigInt(`0x${tip.chainwork || '0'}`);

    const touch = (address: string, height: number, time: number): AddressAcc => {
      let a = acc.get(address);
      if (!a) {
        a = {
          balance: 0n,
          received: 0n,
          sent: 0n,
          txs: 0,
          utxo: 0,
          firstH: height,
          firstT: time,
          lastH: height,
          lastT: time,
        };
        acc.set(address, a);
      }
      a.lastH = height;
      a.lastT = time;
      return a;
    };

    for (const b of blocks) {
      const day = dayOf(b.time);
      let fees = 0n;
      let reward = 0n;
      let valueOut = 0n;
      let opReturn = 0n;
      let inputCount = 0;
      let outputCount = 0;
      for (const t of b.txs) {
        let valueIn = 0n;
        const flows = new Map<string, { r: bigint; s: bigint }>();
        const flow = (a: string) => {
          let f = flows.get(a);
          if (!f) {
            f = { r: 0n, s: 0n };
            flows.set(a, f);
          }
          return f;
        };
        for (const i of t.inputs) {
          const p = t.isCoinbase || i.prevTxid === null ? undefined : prevouts.get(`${t.txid}:${i.vin}`);
          const value = p?.value ?? 0n;
          valueIn += value;
          inputRows.push([
            t.txid,
            i.vin,
            b.height,
            i.prevTxid,
            i.prevVout,
            p?.address ?? null,
            value,
            i.sequence,
          ]);
          if (p?.address) {
            flow(p.address).s += value;
            touch(p.address, b.height, b.time).utxo -= 1;
          }
        }
        let txOut = 0n;
        for (const o of t.outputs) {
          txOut += o.value;
          if (o.scriptType === 'nulldata') opReturn += o.value;
          if (o.address) {
            flow(o.address).r += o.value;
            touch(o.address, b.height, b.time).utxo += 1;
          }
        }
        const fee = t.isCoinbase ? 0n : valueIn - txOut;
        if (t.isCoinbase) reward += txOut;
        else {
          fees += fee;
          valueOut += txOut;
        }
        inputCount += t.inputs.length;
        outputCount += t.outputs.length;
        for (const [address, f] of flows) {
          const a = acc.get(address)!;
          a.received += f.r;
          a.sent += f.s;
          a.txs += 1;
          const balance = (balances.get(address) ?? 0n) + f.r - f.s;
          balances.set(address, balance);
          historyRows.push([address, b.height, t.index, t.txid, b.time, f.r, f.s, balance]);
        }
        txRows.push([
          t.txid,
          b.height,
          t.index,
          b.time,
          t.version,
          t.locktime,
          t.size,
          t.vsize,
          t.weight,
          t.inputs.length,
          t.outputs.length,
          valueIn,
          txOut,
          fee,
          t.isCoinbase,
          classifyTx(t, defs.isBurn),
          JSON.stringify(t.raw),
        ]);
      }

      const coinbase = b.txs[0]!;
      const payouts = coinbase.isCoinbase
        ? coinbase.outputs.filter((o) => o.address).map((o) => o.address!)
        : [];
      const minerAddress = payouts[0] ?? null;
      const poolId = defs.attribute(b.coinbaseHex, payouts);
      const subsidy = reward - fees;
      // What the schedule allowed; a coinbase claiming less leaves the rest unclaimed, never to be spent.
      const emission = b.scheduledSubsidy ?? subsidy;
      cumTxCount += b.txs.length;
      cumEmitted += emission;
      cumUnclaimed += emission - subsidy;
      cumFees += fees;
      cumOpReturn += opReturn;
      times.push(b.time);
      if (times.length > 11) times.shift();
      work += blockWork(Number.parseInt(b.bits, 16));
      const cert = b.certificate;
      blockRows.push({
        height: b.height,
        hash: b.hash,
        prevHash: b.prevHash,
        time: b.time,
        medianTime: b.medianTime ?? medianOf(times),
        day,
        version: b.version,
        merkleRoot: b.merkleRoot,
        bits: b.bits,
        nonce: b.nonce,
        difficulty: b.difficulty,
        chainwork: b.chainwork ?? work.toString(16).padStart(64, '0'),
        size: b.size,
        strippedSize: b.strippedSize,
        weight: b.weight,
        txCount: b.txs.length,
        inputCount,
        outputCount,
        subsidy,
        emission,
        fees,
        reward,
        valueOut,
        opReturnValue: opReturn,
        minerAddress,
        poolId,
        coinbaseHex: b.coinbaseHex,
        coinbaseTag: coinbaseTag(b.coinbaseHex),
        hasCertificate: cert !== null,
        cumTxCount,
        cumEmitted,
        cumUnclaimed,
        cumFees,
        cumOpReturn,
        raw: JSON.stringify(b.raw),
      });
      if (cert) {
        const c = cert.config;
        certRows.push({
          blockHash: b.hash,
          height: b.height,
          day,
          version: cert.version,
          readable: cert.readable,
          error: cert.error,
          proofCommitment: cert.proofCommitment,
          computedCommitment: cert.computedCommitment,
          problems: cert.problems,
          namedHash: cert.blockHash,
          layout: cert.layout,
          size: cert.size,
          publicData: cert.publicData ? Buffer.from(cert.publicData).toString('hex') : null,
          proof: cert.proof,
          proofSize: cert.proofSize,
          ancestorHashes: cert.ancestorHashes,
          isMoE: cert.isMoE,
          config: c ? JSON.stringify(c) : null,
          configError: cert.configError,
          shape: c ? { m: c.m, n: c.n, k: c.commonDim, rank: c.rank } : null,
          raw: cert.raw,
        });
      }

      const addMining = (m: Map<string, MiningStatRow>, key: string) => {
        const s = m.get(key);
        if (s) {
          s[1] += 1;
          s[2] += reward;
          s[4] = b.height;
        } else m.set(key, [key, 1, reward, b.height, b.height]);
      };
      if (minerAddress) addMining(minerStats, minerAddress);
      addMining(poolStats, poolId);

      let d = daily.get(day);
      if (!d) {
        d = {
          day,
          blocks: 0,
          txs: 0,
          size: 0,
          fees: 0n,
          emitted: 0n,
          opReturnValue: 0n,
          lastHeight: b.height,
          lastDifficulty: b.difficulty,
          firstTime: b.time,
          lastTime: b.time,
          certificates: 0,
          moeCertificates: 0,
          certByVersion: [0, 0, 0, 0, 0, 0],
          proofBytes: 0,
          proofMin: null,
          proofMax: null,
        };
        daily.set(day, d);
      }
      d.blocks += 1;
      d.txs += b.txs.length;
      d.size += b.size;
      d.fees += fees;
      d.emitted += emission;
      d.opReturnValue += opReturn;
      d.lastHeight = b.height;
      d.lastDifficulty = b.difficulty;
      d.firstTime = Math.min(d.firstTime, b.time);
      d.lastTime = Math.max(d.lastTime, b.time);
      if (cert) {
        d.certificates += 1;
        if (cert.isMoE) d.moeCertificates += 1;
        const slot = cert.readable && cert.version >= 1 && cert.version <= 5 ? cert.version - 1 : 5;
        d.certByVersion[slot]! += 1;
        // Proof sizes are those of certificates that decoded; an unreadable one has no proof to measure.
        if (cert.readable) {
          d.proofBytes += cert.proofSize;
          d.proofMin = d.proofMin === null ? cert.proofSize : Math.min(d.proofMin, cert.proofSize);
          d.proofMax = d.proofMax === null ? cert.proofSize : Math.max(d.proofMax, cert.proofSize);
        }
      }
      const pk = `${day}|${poolId}`;
      const dp = dailyPools.get(pk);
      if (dp) {
        dp[2] += 1;
        dp[3] += reward;
      } else dailyPools.set(pk, [day, poolId, 1, reward]);
      if (minerAddress) {
        const mk = `${day}|${minerAddress}`;
        const dm = dailyMiners.get(mk);
        if (dm) dm[2] += 1;
        else dailyMiners.set(mk, [day, minerAddress, 1]);
      }
    }

    const addressRows: AddressDeltaRow[] = [];
    for (const [address, a] of acc) {
      addressRows.push([
        address,
        a.received - a.sent,
        a.received,
        a.sent,
        a.txs,
        a.utxo,
        a.firstH,
        a.firstT,
        a.lastH,
        a.lastT,
      ]);
      // Re-inserted, so the map's order stays the order of last use that trim() evicts by.
      this.balances.delete(address);
      this.balances.set(address, { balance: balances.get(address)!, seq });
    }

    const last = blocks[blocks.length - 1]!;
    this.tip = {
      height: last.height,
      hash: last.hash,
      cumTxCount,
      cumEmitted,
      cumUnclaimed,
      cumFees,
      cumOpReturn,
      chainwork: blockRows[blockRows.length - 1]!.chainwork,
      recentTimes: times.slice(-10),
    };
    return {
      seq,
      parent: { height: tip.height, hash: tip.hash },
      last: { height: last.height, hash: last.hash },
      txCount: txRows.length,
      outputs,
      spends,
      txRows,
      inputRows,
      historyRows,
      addressRows,
      blockRows,
      certRows,
      minerStats: [...minerStats.values()],
      poolStats: [...poolStats.values()],
      daily: [...daily.values()],
      dailyPools: [...dailyPools.values()],
      dailyMiners: [...dailyMiners.values()],
    };
  }
}

/** The median of up to 11 block times (Core's and btcd's median time past). */
function medianOf(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Drops the oldest entries of committed batches until the map is back under `max`. */
function trim<V extends { seq: number }>(map: Map<string, V>, max: number, committedSeq: number): void {
  if (map.size <= max) return;
  const target = Math.floor(max * 0.8);
  for (const [key, v] of map) {
    if (map.size <= target) break;
    if (v.seq <= committedSeq) map.delete(key);
  }
}

/**
 * Writes a prepared batch in the caller's transaction: either all of it lands with the new tip, or none of
 * it does. The tip is locked and must still be the batch's parent.
 */
export async function writePrepared(tx: Sql, p: PreparedBatch): Promise<void> {
  const tip = await lockTip(tx);
  if (tip.height !== p.parent.height || tip.hash !== p.parent.hash) {
    throw new ChainMismatchError(
      `the indexed tip moved to ${tip.height} (${tip.hash ?? 'none'}) while a batch extending ${p.parent.height} was prepared`,
    );
  }
  await insertOutputs(tx, p.outputs);
  const marked = await markSpent(tx, p.spends);
  if (marked !== p.spends.length) {
    throw new MissingPrevoutError(
      `${p.spends.length - marked} input(s) of blocks ${p.parent.height + 1}–${p.last.height} spend outputs the index does not hold as unspent`,
    );
  }
  await insertTxs(tx, p.txRows);
  await insertInputs(tx, p.inputRows);
  await insertAddressTxs(tx, p.historyRows);
  await upsertAddresses(tx, p.addressRows);
  await insertBlocks(tx, p.blockRows);
  await insertCertificates(tx, p.certRows);
  await upsertMinerStats(tx, p.minerStats);
  await upsertPoolStats(tx, p.poolStats);
  await upsertDaily(tx, p.daily, p.dailyPools, p.dailyMiners);
  await setTip(tx, p.last.height, p.last.hash);
}

/**
 * Writes consecutive blocks that extend the indexed tip, with everything derived from them, in the caller's
 * transaction: either all of it lands with the new tip, or none of it does.
 */
export async function applyBlocks(tx: Sql, blocks: ParsedBlock[], defs: Definitions): Promise<void> {
  if (blocks.length === 0) return;
  const prepared = await new IngestState().prepare(tx, blocks, defs);
  await writePrepared(tx, prepared);
}
