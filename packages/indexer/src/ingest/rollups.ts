import type {
  BlockRow,
  CertificateRow,
  DailyMinerBlocksRow,
  DailyPoolBlocksRow,
  DailyStatsRow,
  MinerStatsRow,
  PoolStatsRow,
} from '@explorer/db';

/** A batch's additions to the miner, pool and daily totals. */
export interface Rollups {
  minerStats: MinerStatsRow[];
  poolStats: PoolStatsRow[];
  dailyStats: DailyStatsRow[];
  dailyPoolBlocks: DailyPoolBlocksRow[];
  dailyMinerBlocks: DailyMinerBlocksRow[];
}

/** The daily count a certificate goes to: its version's while readable and known, else `certOther`. */
const CERT_VERSIONS = ['certV1', 'certV2', 'certV3', 'certV4', 'certV5'] as const;

/** The entry of `map` under `key`, made by `create` on first use. */
function entry<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = create();
    map.set(key, v);
  }
  return v;
}

/** Step 5 of a batch: what its blocks add to the per-miner, per-pool and per-day totals, merged in order. */
export function rollups(blocks: readonly BlockRow[], certificates: readonly CertificateRow[]): Rollups {
  const certOf = new Map(certificates.map((c) => [c.height, c]));
  const miners = new Map<string, MinerStatsRow>();
  const pools = new Map<string, PoolStatsRow>();
  const days = new Map<number, DailyStatsRow>();
  const dayPools = new Map<string, DailyPoolBlocksRow>();
  const dayMiners = new Map<string, DailyMinerBlocksRow>();

  for (const b of blocks) {
    const first = { blocks: 0, reward: 0n, firstHeight: b.height, lastHeight: b.height };
    if (b.minerAddress) {
      const m = entry(miners, b.minerAddress, () => ({ address: b.minerAddress!, ...first }));
      m.blocks += 1;
      m.reward += b.reward;
      m.lastHeight = b.height;
      const dm = entry(dayMiners, `${b.day}|${b.minerAddress}`, () => ({
        address: b.minerAddress!,
        day: b.day,
        blocks: 0,
      }));
      dm.blocks += 1;
    }
    const p = entry(pools, b.poolId, () => ({ poolId: b.poolId, ...first }));
    p.blocks += 1;
    p.reward += b.reward;
    p.lastHeight = b.height;
    const dp = entry(dayPools, `${b.day}|${b.poolId}`, () => ({
      day: b.day,
      poolId: b.poolId,
      blocks: 0,
      reward: 0n,
    }));
    dp.blocks += 1;
    dp.reward += b.reward;

    const d = entry(days, b.day, () => ({
      day: b.day,
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
      certV1: 0,
      certV2: 0,
      certV3: 0,
      certV4: 0,
      certV5: 0,
      certOther: 0,
      proofBytes: 0,
      proofMin: null,
      proofMax: null,
    }));
    d.blocks += 1;
    d.txs += b.txCount;
    d.size += b.size;
    d.fees += b.fees;
    d.emitted += b.emission;
    d.opReturnValue += b.opReturnValue;
    d.lastHeight = b.height;
    d.lastDifficulty = b.difficulty;
    d.firstTime = Math.min(d.firstTime, b.time);
    d.lastTime = Math.max(d.lastTime, b.time);
    const cert = certOf.get(b.height);
    if (cert) {
      d.certificates += 1;
      if (cert.isMoE) d.moeCertificates += 1;
      const known = cert.readable && cert.version >= 1 && cert.version <= 5;
      d[known ? CERT_VERSIONS[cert.version - 1]! : 'certOther'] += 1;
      // Proof sizes are those of certificates that decoded; an unreadable one has no proof to measure.
      if (cert.readable) {
        d.proofBytes += cert.proofSize;
        d.proofMin = d.proofMin === null ? cert.proofSize : Math.min(d.proofMin, cert.proofSize);
        d.proofMax = d.proofMax === null ? cert.proofSize : Math.max(d.proofMax, cert.proofSize);
      }
    }
  }
  return {
    minerStats: [...miners.values()],
    poolStats: [...pools.values()],
    dailyStats: [...days.values()],
    dailyPoolBlocks: [...dayPools.values()],
    dailyMinerBlocks: [...dayMiners.values()],
  };
}
