import { certificateStatus } from '@explorer/chain';
import type {
  DailyBlocks,
  Miner,
  Network,
  PayoutOutput,
  PoolAnalytics,
  PoolShare,
  PoolWindow,
  Pouw,
  Store,
} from '@explorer/core';
import { chainIdentity, dateOfDay, toBlock } from './mappers.js';
import {
  type DailyStatsQueryRow,
  PROOF_SIZE_EDGES,
  selectCertificateDistributions,
  selectCertificateTotals,
  selectDayWork,
  selectLatestCertificates,
  selectRecentDays,
  selectSupply,
} from './queries/analytics.js';
import { selectMinerBlocks } from './queries/blocks.js';
import {
  type MinerQueryRow,
  type PayoutQueryRow,
  type PoolShareRow,
  selectBlockCount,
  selectMiner,
  selectMinerDaily,
  selectPool,
  selectPoolDaily,
  selectPoolPayoutAddresses,
  selectPoolPayouts,
  selectPoolShares24h,
  selectPoolSharesAll,
  selectPoolSharesDays,
  selectTipBlock,
  selectTopMiners,
} from './queries/mining.js';
import { readIndexerState } from './queries/state.js';
import { amountText, type Sql } from './sql.js';

/** The certificate-version forks, by the key the chain's parameters name them with. */
const FORKS = [
  { version: 2, name: 'MoE (mixture-of-experts jobs)', key: 'moe' },
  { version: 3, name: 'salted seed', key: 'saltedSeed' },
  { version: 4, name: 'FP8 proofs', key: 'fp8' },
  { version: 5, name: 'FP16 proofs', key: 'fp16' },
] as const;

/** Work represented by one unit of difficulty (hashes). */
const WORK_PER_DIFFICULTY = 2 ** 32;
const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
const daily = (rows: { day: number; blocks: number }[]): DailyBlocks[] =>
  rows.map((r) => ({ date: dateOfDay(r.day), blocks: r.blocks }));

function toMiner(
  address: string,
  r: MinerQueryRow | null,
  total: number,
  label: string | null = null,
): Miner {
  return {
    address,
    label: r?.label ?? label,
    seen: r !== null,
    blocks: r?.blocks ?? 0,
    share: ratio(r?.blocks ?? 0, total),
    reward: amountText(r?.reward),
    firstHeight: r?.first_height ?? null,
    lastHeight: r?.last_height ?? null,
    lastBlockTime: r?.last_time ?? null,
    pool: r?.pool_id ? { id: r.pool_id, name: r.pool_name ?? poolName(r.pool_id) } : null,
  };
}

const poolName = (id: string) => (id === 'unknown' ? 'Unknown' : id);

function toPayout(r: PayoutQueryRow): PayoutOutput {
  return {
    txid: r.txid,
    vout: r.vout,
    blockHeight: r.height,
    blockHash: r.hash,
    time: r.time,
    address: r.address,
    value: amountText(r.value),
    scriptType: r.script_type,
    spent: r.spent,
  };
}

function toShares(rows: PoolShareRow[], limit: number): { blocks: number; pools: PoolShare[] } {
  const blocks = rows.reduce((n, r) => n + r.blocks, 0);
  return {
    blocks,
    pools: rows.slice(0, limit).map((r) => ({
      id: r.pool_id,
      name: r.name ?? poolName(r.pool_id),
      link: r.link,
      blocks: r.blocks,
      share: ratio(r.blocks, blocks),
    })),
  };
}

/** Hashrate over daily rollup rows: each day's blocks at that day's last difficulty. */
function windowFromDays(rows: DailyStatsQueryRow[]) {
  const blocks = rows.reduce((n, r) => n + r.blocks, 0);
  const first = rows[0];
  const last = rows[rows.length - 1];
  const span = first && last ? last.last_time - first.first_time : 0;
  const work = rows.reduce((n, r) => n + r.blocks * r.last_difficulty, 0) * WORK_PER_DIFFICULTY;
  return {
    blocks,
    averageBlockInterval: blocks > 1 && span > 0 ? span / (blocks - 1) : null,
    hashrate: span > 0 ? work / span : null,
  };
}

/** The mining and analytics part of the Store. */
export function miningStoreMethods(
  sql: Sql,
): Pick<
  Store,
  | 'listTopMiners'
  | 'getMiner'
  | 'listMinerBlocks'
  | 'minerBlocksOverTime'
  | 'poolShares'
  | 'getPool'
  | 'poolBlocksOverTime'
  | 'listPoolPayoutOutputs'
  | 'network'
  | 'pouw'
  | 'supply'
  | 'poolAnalytics'
> {
  async function poolShares(window: PoolWindow, limit: number) {
    if (window === 'all') return toShares(await selectPoolSharesAll(sql), limit);
    const tip = await selectTipBlock(sql);
    if (!tip) return { blocks: 0, pools: [] };
    if (window === '24h') return toShares(await selectPoolShares24h(sql, tip.time), limit);
    return toShares(await selectPoolSharesDays(sql, tip.day, window === '7d' ? 7 : 30), limit);
  }

  return {
    async listTopMiners(page) {
      const [rows, total] = await Promise.all([selectTopMiners(sql, page), selectBlockCount(sql)]);
      return rows.map((r) => toMiner(r.address, r, total));
    },
    async getMiner(address) {
      const [row, total, label] = await Promise.all([
        selectMiner(sql, address),
        selectBlockCount(sql),
        sql.query<{ label: string }>(
          'SELECT label FROM known_labels WHERE address = $1',
          [address],
          'labels.of',
        ),
      ]);
      return toMiner(address, row, total, label[0]?.label ?? null);
    },
    async listMinerBlocks(address, page) {
      return (await selectMinerBlocks(sql, address, page)).map(toBlock);
    },
    async minerBlocksOverTime(address) {
      return daily(await selectMinerDaily(sql, address));
    },
    poolShares,
    async getPool(poolId) {
      const row = await selectPool(sql, poolId);
      if (!row) return null;
      const [total, payouts, recent] = await Promise.all([
        selectBlockCount(sql),
        selectPoolPayoutAddresses(sql, poolId),
        selectPoolPayouts(sql, poolId, { limit: 99, after: null, offset: 0 }),
      ]);
      const recentHeights = [...new Set(recent.map((r) => r.height))].slice(0, 10);
      return {
        id: poolId,
        name: row.name ?? poolName(poolId),
        link: row.link,
        defined: row.defined,
        tags: row.tags ?? [],
        definedAddresses: row.addresses ?? [],
        blocks: row.blocks ?? 0,
        share: ratio(row.blocks ?? 0, total),
        reward: amountText(row.reward),
        firstHeight: row.first_height,
        lastHeight: row.last_height,
        payoutAddresses: payouts,
        recentPayoutOutputs: recent.filter((r) => recentHeights.includes(r.height)).map(toPayout),
      };
    },
    async poolBlocksOverTime(poolId) {
      return daily(await selectPoolDaily(sql, poolId));
    },
    async listPoolPayoutOutputs(poolId, page) {
      return (await selectPoolPayouts(sql, poolId, page)).map(toPayout);
    },
    async network(): Promise<Pick<Network, 'height' | 'tipTime' | 'difficulty' | 'hashrate'>> {
      const tip = await selectTipBlock(sql);
      const empty = { blocks: 0, averageBlockInterval: null, hashrate: null };
      if (!tip)
        return {
          height: -1,
          tipTime: null,
          difficulty: null,
          hashrate: { '1d': empty, '7d': empty, '30d': empty },
        };
      const [day, days] = await Promise.all([
        selectDayWork(sql, tip.time),
        selectRecentDays(sql, tip.day, 30),
      ]);
      const span = day.first_time !== null && day.last_time !== null ? day.last_time - day.first_time : 0;
      // The first block of the window only marks its start; the work counted is that of the blocks after it.
      const work = ((day.work ?? 0) - (day.first_difficulty ?? 0)) * WORK_PER_DIFFICULTY;
      return {
        height: tip.height,
        tipTime: tip.time,
        difficulty: tip.difficulty,
        hashrate: {
          '1d': {
            blocks: day.blocks,
            averageBlockInterval: day.blocks > 1 && span > 0 ? span / (day.blocks - 1) : null,
            hashrate: span > 0 ? work / span : null,
          },
          '7d': windowFromDays(days.filter((d) => d.day > tip.day - 7)),
          '30d': windowFromDays(days),
        },
      };
    },
    async pouw(): Promise<Pouw> {
      const tip = await selectTipBlock(sql);
      const [t, days, latest, dist, chain] = await Promise.all([
        selectCertificateTotals(sql),
        tip ? selectRecentDays(sql, tip.day, 30) : Promise.resolve([]),
        selectLatestCertificates(sql, 10),
        selectCertificateDistributions(sql),
        readIndexerState(sql).then((s) => chainIdentity(s.chain)),
      ]);
      const versions = (r: {
        v1: number;
        v2: number;
        v3: number;
        v4: number;
        v5: number;
        other: number;
      }) => ({
        '1': r.v1,
        '2': r.v2,
        '3': r.v3,
        '4': r.v4,
        '5': r.v5,
        other: r.other,
      });
      const firstSeen = new Map(dist.firstSeen.map((f) => [f.version, f.height]));
      const forks = chain?.certificateForks ?? null;
      const tipHeight = tip?.height ?? -1;
      return {
        blocks: t.blocks,
        certifiedBlocks: t.certificates,
        certifiedShare: ratio(t.certificates, t.blocks),
        byVersion: versions(t),
        moe: t.moe,
        moeShare: ratio(t.moe, t.certificates),
        commitmentFailures: t.failures,
        placeholders: t.placeholders,
        unreadable: t.unreadable,
        proofSize: {
          min: t.proof_min,
          avg: t.certificates - t.unreadable > 0 ? t.proof_bytes / (t.certificates - t.unreadable) : null,
          max: t.proof_max,
          histogram: dist.sizes.map((b) => ({
            minBytes: PROOF_SIZE_EDGES[b.bucket - 1] ?? 0,
            maxBytes: PROOF_SIZE_EDGES[b.bucket] ?? null,
            certificates: b.n,
          })),
        },
        shapes: dist.shapes,
        ranks: dist.ranks,
        forks: FORKS.map((f) => {
          const activationHeight = forks?.[f.key] ?? null;
          const first = firstSeen.get(f.version) ?? null;
          return {
            version: f.version,
            name: f.name,
            activationHeight,
            firstSeenHeight: first,
            crossed: activationHeight !== null ? tipHeight >= activationHeight : first !== null,
          };
        }),
        daily: days.map((d) => ({
          date: dateOfDay(d.day),
          blocks: d.blocks,
          certificates: d.certificates,
          share: ratio(d.certificates, d.blocks),
          moe: d.moe_certificates,
          avgProofSize:
            d.certificates - d.cert_other > 0 ? d.proof_bytes / (d.certificates - d.cert_other) : null,
          byVersion: versions({
            v1: d.cert_v1,
            v2: d.cert_v2,
            v3: d.cert_v3,
            v4: d.cert_v4,
            v5: d.cert_v5,
            other: d.cert_other,
          }),
        })),
        latest: latest.map((c) => ({
          height: c.height,
          blockHash: c.block_hash,
          time: c.time,
          version: c.version,
          isMoE: c.is_moe,
          proofSize: c.proof_size,
          verified: c.verified,
          status: certificateStatus({
            readable: c.readable,
            binds: c.verified === true,
            proofCommitment: c.proof_commitment,
          }),
        })),
      };
    },
    async supply() {
      const s = await selectSupply(sql);
      const chain = chainIdentity(s.chain);
      const emitted = BigInt(s.emitted);
      const unclaimed = BigInt(s.unclaimed);
      const opReturn = BigInt(s.op_return);
      const burn = BigInt(s.burn);
      const unspendable = opReturn + unclaimed + burn;
      const schedule = chain?.emissionFormula ?? null;
      return {
        height: s.height ?? -1,
        blockHash: s.hash,
        emitted: String(emitted),
        claimed: String(emitted - unclaimed),
        fees: String(BigInt(s.fees)),
        unspendable: {
          total: String(unspendable),
          opReturn: String(opReturn),
          unclaimedSubsidy: String(unclaimed),
          burnAddresses: String(burn),
        },
        circulating: String(emitted - unspendable),
        maxSupply: chain?.maxSupply ?? null,
        formula: schedule
          ? `emitted = Σ subsidy(h) over blocks 0…height, ${schedule}; claimed = Σ coinbase outputs − Σ fees; circulating = emitted − (OP_RETURN value + unclaimed subsidy + balances of labelled burn addresses)`
          : 'emitted = claimed = Σ (coinbase outputs − block fees) (the chain’s schedule is not known); circulating = emitted − (OP_RETURN value + balances of labelled burn addresses)',
      };
    },
    async poolAnalytics(): Promise<PoolAnalytics> {
      const tip = await selectTipBlock(sql);
      const [d1, d7, d30, days] = await Promise.all([
        poolShares('24h', 100),
        poolShares('7d', 100),
        poolShares('30d', 100),
        tip ? selectRecentDays(sql, tip.day, 30) : Promise.resolve([]),
      ]);
      return {
        windows: { '24h': d1, '7d': d7, '30d': d30 },
        overlay: days.map((d) => ({
          date: dateOfDay(d.day),
          blocks: d.blocks,
          difficulty: d.last_difficulty,
          hashrate: (d.blocks * d.last_difficulty * WORK_PER_DIFFICULTY) / 86_400,
        })),
      };
    },
  };
}
