import { decodeTx, toDisplayHex } from '@explorer/chain';
import type { Dialect } from './chain/dialect.js';
import type { ChainState, StoredBlock } from './chain/state.js';

/** Per-address figures over the best chain (confirmed only). */
export interface AddressTruth {
  balance: string;
  received: string;
  sent: string;
  txCount: number;
  utxos: number;
}

/** Certificate statistics over the best chain (empty in the Bitcoin dialect). */
export interface CertificateTruth {
  total: number;
  byVersion: Record<string, number>;
  moe: number;
  proofBytes: { min: number; max: number; sum: number };
  /** Certificates above genesis whose header does not carry their commitment: the devnet never makes one. */
  commitmentFailures: number;
  /** Certificates per matrix shape `m×n×k` (versions 1–3, genesis excluded). */
  shapes: Record<string, number>;
  /** Certificates per rank (versions 1–3, genesis excluded). */
  ranks: Record<string, number>;
  /** The first height of each certificate version. */
  firstHeight: Record<string, number>;
}

/** What the devnet knows about its current best chain; amounts are base units as decimal strings. */
export interface ChainTruth {
  height: number;
  tipHash: string;
  /** Includes coinbases. */
  txCount: number;
  /** Σ subsidy by the emission schedule. */
  emitted: string;
  /** Σ subsidy coinbases did not claim. */
  unclaimed: string;
  fees: string;
  opReturnValue: string;
  burnAddressBalance: string;
  /** Σ value of the unspent set, OP_RETURN outputs excluded: emitted − unclaimed − opReturnValue. */
  utxoValue: string;
  utxoCount: number;
  blocksByPool: Record<string, number>;
  blocksByMiner: Record<string, number>;
  certificates: CertificateTruth;
  balances(address: string): AddressTruth;
  busyAddresses: string[];
}

/** Certificate statistics before the first certificate. */
export function emptyCertificateTruth(): CertificateTruth {
  return {
    total: 0,
    byVersion: {},
    moe: 0,
    proofBytes: { min: 0, max: 0, sum: 0 },
    commitmentFailures: 0,
    shapes: {},
    ranks: {},
    firstHeight: {},
  };
}

/** Adds one certificate of `version` with a proof of `proofLength` bytes to the statistics. */
export function countCertificate(
  c: CertificateTruth,
  height: number,
  cert: {
    version: number;
    proofLength: number;
    isMoE: boolean;
    shape: { m: number; n: number; k: number; rank: number } | null;
  },
): void {
  const pb = c.proofBytes;
  pb.min = c.total === 0 ? cert.proofLength : Math.min(pb.min, cert.proofLength);
  pb.max = Math.max(pb.max, cert.proofLength);
  pb.sum += cert.proofLength;
  c.total++;
  c.byVersion[cert.version] = (c.byVersion[cert.version] ?? 0) + 1;
  c.firstHeight[cert.version] ??= height;
  if (cert.isMoE) c.moe++;
  if (cert.shape) {
    const key = `${cert.shape.m}×${cert.shape.n}×${cert.shape.k}`;
    c.shapes[key] = (c.shapes[key] ?? 0) + 1;
    c.ranks[cert.shape.rank] = (c.ranks[cert.shape.rank] ?? 0) + 1;
  }
}

/** ChainTruth without the balances function (what devnet_truth returns over RPC). */
export type ChainTruthData = Omit<ChainTruth, 'balances'>;

function addressTruth(best: StoredBlock[], dialect: Dialect, address: string): AddressTruth {
  const target = dialect.addressScript(address);
  let received = 0n;
  let sent = 0n;
  let txCount = 0;
  const mine = new Map<string, bigint>();
  if (target) {
    for (const block of best) {
      for (let i = 0; i < block.txids.length; i++) {
        const raw = block.raw.subarray(block.offsets[i], block.offsets[i + 1]);
        // Most txs neither pay the address nor can spend from it; skip parsing those.
        if (mine.size === 0 && raw.indexOf(target) < 0) continue;
        const tx = decodeTx(raw);
        let involved = false;
        if (i > 0 && mine.size > 0) {
          for (const input of tx.inputs) {
            const key = `${toDisplayHex(input.prevTxid)}:${input.vout}`;
            const v = mine.get(key);
            if (v !== undefined) {
              sent += v;
              mine.delete(key);
              involved = true;
            }
          }
        }
        tx.outputs.forEach((o, vout) => {
          if (Buffer.from(o.script).equals(target)) {
            received += o.value;
            mine.set(`${block.txids[i]}:${vout}`, o.value);
            involved = true;
          }
        });
        if (involved) txCount++;
      }
    }
  }
  return {
    balance: String(received - sent),
    received: String(received),
    sent: String(sent),
    txCount,
    utxos: mine.size,
  };
}

/** Assembles ChainTruth from per-block running totals; balances() scans the chain on demand. */
export function chainTruth(state: ChainState, busyAddresses: string[], dialect: Dialect): ChainTruth {
  const tip = state.tip() as StoredBlock;
  const best = state.best.slice();
  const blocksByPool: Record<string, number> = {};
  const blocksByMiner: Record<string, number> = {};
  const certificates = emptyCertificateTruth();
  for (const b of best) {
    blocksByPool[b.pool] = (blocksByPool[b.pool] ?? 0) + 1;
    if (b.miner) blocksByMiner[b.miner] = (blocksByMiner[b.miner] ?? 0) + 1;
    const c = b.certificate;
    if (!c) continue;
    countCertificate(certificates, b.height, c);
  }
  const cache = new Map<string, AddressTruth>();
  return {
    height: tip.height,
    tipHash: tip.hash,
    txCount: tip.cum.txs,
    emitted: String(tip.cum.emitted),
    unclaimed: String(tip.cum.unclaimed),
    fees: String(tip.cum.fees),
    opReturnValue: String(tip.cum.opReturn),
    burnAddressBalance: String(tip.cum.burn),
    utxoValue: String(tip.cum.utxoValue),
    utxoCount: tip.cum.utxoCount,
    blocksByPool,
    blocksByMiner,
    certificates,
    busyAddresses: [...busyAddresses],
    balances(address: string): AddressTruth {
      let r = cache.get(address);
      if (!r) {
        r = addressTruth(best, dialect, address);
        cache.set(address, r);
      }
      return r;
    },
  };
}
