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
  type OutputRow,
  readBalances,
  type SpendRow,
  setTip,
  spendOutputs,
  type TxRow,
  upsertAddresses,
  upsertDaily,
  upsertMinerStats,
  upsertPoolStats,
} from '@explorer/db';
import { coinbaseTag, type Definitions } from '../pools.js';
import { classifyTx, dayOf } from './classify.js';
import type { ParsedBlock } from './parse.js';

/** The blocks do not extend the indexed tip (a reorg happened, or another writer moved it). */
export class ChainMismatchError extends Error {
  override readonly name = 'ChainMismatchError';
}

/** A block spends an output the index does not hold as unspent: the node and the index disagree. */
export class MissingPrevoutError extends Error {
  override readonly name = 'MissingPrevoutError';
}

interface AddressAcc {
  balance: number;
  received: number;
  sent: number;
  txs: number;
  utxo: number;
  firstH: number;
  firstT: number;
  lastH: number;
  lastT: number;
}

/**
 * Writes consecutive blocks that extend the indexed tip, with everything derived from them, in the caller's
 * transaction: either all of it lands with the new tip, or none of it does.
 */
export async function applyBlocks(tx: Sql, blocks: ParsedBlock[], defs: Definitions): Promise<void> {
  if (blocks.length === 0) return;
  const tip = await lockTip(tx);
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

  // 1. Outputs first, so spends of outputs created earlier in the same batch resolve.
  const outputs: OutputRow[] = [];
  const spends: SpendRow[] = [];
  for (const b of blocks) {
    for (const t of b.txs) {
      for (const o of t.outputs) {
        outputs.push([
          t.txid,
          o.vout,
          b.height,
          t.index,
          o.address,
          o.value,
          o.scriptType,
          o.scriptHex,
          t.isCoinbase,
        ]);
      }
      if (!t.isCoinbase) {
        for (const i of t.inputs) {
          if (i.prevTxid !== null) spends.push([i.prevTxid, i.prevVout ?? 0, t.txid, i.vin, b.height]);
        }
      }
    }
  }
  await insertOutputs(tx, outputs);

  // 2. Spends: mark the outputs and learn the value and address of every input.
  const spent = await spendOutputs(tx, spends);
  if (spent.length !== spends.length) {
    const found = new Set(spent.map((s) => `${s.txid}:${s.vin}`));
    const missing = spends.find((s) => !found.has(`${s[2]}:${s[3]}`));
    throw new MissingPrevoutError(
      `input ${missing?.[2]}:${missing?.[3]} spends ${missing?.[0]}:${missing?.[1]}, which is not an unspent output of the index`,
    );
  }
  const prevouts = new Map(spent.map((s) => [`${s.txid}:${s.vin}`, s]));

  // 3. Per address running balances need the totals before this batch.
  const touched = new Set<string>();
  for (const o of outputs) if (o[4]) touched.add(o[4]);
  for (const s of spent) if (s.address) touched.add(s.address);
  const balances = await readBalances(tx, [...touched]);

  const txRows: TxRow[] = [];
  const inputRows: InputRow[] = [];
  const historyRows: AddressTxRow[] = [];
  const acc = new Map<string, AddressAcc>();
  const blockRows: BlockRow[] = [];
  const certRows: CertificateRow[] = [];
  const minerStats = new Map<string, MiningStatRow>();
  const poolStats = new Map<string, MiningStatRow>();
  const daily = new Map<number, DailyStatRow>();
  const dailyPools = new Map<string, [number, string, number, number]>();
  const dailyMiners = new Map<string, [number, string, number]>();
  let { cumTxCount, cumEmitted, cumFees, cumOpReturn } = tip;

  const touch = (address: string, height: number, time: number): AddressAcc => {
    let a = acc.get(address);
    if (!a) {
      a = {
        balance: 0,
        received: 0,
        sent: 0,
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
    let fees = 0;
    let reward = 0;
    let valueOut = 0;
    let opReturn = 0;
    let inputCount = 0;
    let outputCount = 0;
    for (const t of b.txs) {
      let valueIn = 0;
      const flows = new Map<string, { r: number; s: number }>();
      const flow = (a: string) => {
        let f = flows.get(a);
        if (!f) {
          f = { r: 0, s: 0 };
          flows.set(a, f);
        }
        return f;
      };
      for (const i of t.inputs) {
        const p = t.isCoinbase || i.prevTxid === null ? undefined : prevouts.get(`${t.txid}:${i.vin}`);
        const value = p?.value ?? 0;
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
      let txOut = 0;
      for (const o of t.outputs) {
        txOut += o.value;
        if (o.scriptType === 'nulldata') opReturn += o.value;
        if (o.address) {
          flow(o.address).r += o.value;
          touch(o.address, b.height, b.time).utxo += 1;
        }
      }
      const fee = t.isCoinbase ? 0 : valueIn - txOut;
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
        const balance = (balances.get(address) ?? 0) + f.r - f.s;
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
    cumTxCount += b.txs.length;
    cumEmitted += subsidy;
    cumFees += fees;
    cumOpReturn += opReturn;
    const cert = b.certificate;
    blockRows.push({
      height: b.height,
      hash: b.hash,
      prevHash: b.prevHash,
      time: b.time,
      medianTime: b.medianTime,
      day,
      version: b.version,
      merkleRoot: b.merkleRoot,
      bits: b.bits,
      nonce: b.nonce,
      difficulty: b.difficulty,
      chainwork: b.chainwork,
      size: b.size,
      strippedSize: b.strippedSize,
      weight: b.weight,
      txCount: b.txs.length,
      inputCount,
      outputCount,
      subsidy,
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
      cumFees,
      cumOpReturn,
      raw: JSON.stringify(b.raw),
    });
    if (cert) {
      certRows.push({
        blockHash: b.hash,
        height: b.height,
        day,
        version: cert.version,
        proofCommitment: cert.proofCommitment,
        publicData: cert.publicData,
        proof: cert.proof,
        proofSize: cert.proofSize,
        isMoE: cert.isMoE,
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
        fees: 0,
        emitted: 0,
        opReturnValue: 0,
        lastHeight: b.height,
        lastDifficulty: b.difficulty,
        firstTime: b.time,
        lastTime: b.time,
        certificates: 0,
        moeCertificates: 0,
        certByVersion: [0, 0, 0, 0],
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
    d.emitted += subsidy;
    d.opReturnValue += opReturn;
    d.lastHeight = b.height;
    d.lastDifficulty = b.difficulty;
    d.firstTime = Math.min(d.firstTime, b.time);
    d.lastTime = Math.max(d.lastTime, b.time);
    if (cert) {
      d.certificates += 1;
      if (cert.isMoE) d.moeCertificates += 1;
      if (cert.version >= 1 && cert.version <= 4) d.certByVersion[cert.version - 1]! += 1;
      d.proofBytes += cert.proofSize;
      d.proofMin = d.proofMin === null ? cert.proofSize : Math.min(d.proofMin, cert.proofSize);
      d.proofMax = d.proofMax === null ? cert.proofSize : Math.max(d.proofMax, cert.proofSize);
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
  }

  await insertTxs(tx, txRows);
  await insertInputs(tx, inputRows);
  await insertAddressTxs(tx, historyRows);
  await upsertAddresses(tx, addressRows);
  await insertBlocks(tx, blockRows);
  await insertCertificates(tx, certRows);
  await upsertMinerStats(tx, [...minerStats.values()]);
  await upsertPoolStats(tx, [...poolStats.values()]);
  await upsertDaily(tx, [...daily.values()], [...dailyPools.values()], [...dailyMiners.values()]);
  const last = blocks[blocks.length - 1]!;
  await setTip(tx, last.height, last.hash);
}
