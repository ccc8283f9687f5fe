import { merkleRoot } from './chain/block.js';
import { fromDisplayHex, sha256d, toDisplayHex } from './chain/hash.js';
import { makeAttributor, type PoolDefinition } from './chain/pools.js';
import { parseTx, serializeTx, txSizes } from './chain/tx.js';
import type { ChainTruthData } from './truth.js';

/** Any way of calling the devnet's RPC (in-process or over HTTP). */
export type RpcCall = (method: string, params?: unknown[]) => Promise<unknown>;

interface RenderedTx {
  txid: string;
  hash: string;
  size: number;
  vsize: number;
  weight: number;
  hex: string;
  fee?: number;
  vin: { coinbase?: string; txid?: string; vout?: number }[];
  vout: {
    value: number;
    n: number;
    scriptPubKey: { address?: string; addresses?: string[]; type: string };
  }[];
}

const units = (coins: number) => Math.round(coins * 1e8);

/**
 * Recomputes the chain's figures independently by walking getblock over RPC, checking encodings
 * (txid, wtxid, sizes, merkle root, header hash) and that every input spends an existing unspent output once.
 * Throws on the first inconsistency. Used by the tests; handy for anyone validating an indexer against the devnet.
 */
export async function auditChain(
  call: RpcCall,
  opts: { pools: PoolDefinition[]; burnAddresses: string[]; halvingInterval: number },
): Promise<Omit<ChainTruthData, 'busyAddresses'>> {
  const attribute = makeAttributor(opts.pools);
  const height = (await call('getblockcount')) as number;
  const utxo = new Map<string, { value: number; address?: string }>();
  let emitted = 0;
  let fees = 0;
  let opReturnValue = 0;
  let txCount = 0;
  const blocksByPool: Record<string, number> = {};
  const blocksByMiner: Record<string, number> = {};
  const certificates = {
    total: 0,
    byVersion: {} as Record<string, number>,
    moe: 0,
    proofBytes: { min: 0, max: 0, sum: 0 },
  };
  let prevHash: string | undefined;
  let tipHash = '';
  const fail = (msg: string): never => {
    throw new Error(msg);
  };
  for (let h = 0; h <= height; h++) {
    const hash = (await call('getblockhash', [h])) as string;
    const block = (await call('getblock', [hash, 2])) as Record<string, unknown> & { tx: RenderedTx[] };
    const raw = Buffer.from((await call('getblock', [hash, 0])) as string, 'hex');
    if (toDisplayHex(sha256d(raw.subarray(0, 80))) !== hash) fail(`header hash mismatch at ${h}`);
    if (block.previousblockhash !== prevHash) fail(`previousblockhash mismatch at ${h}`);
    if (raw.length !== block.size) fail(`block size mismatch at ${h}`);
    const txids = block.tx.map((t) => t.txid);
    if (toDisplayHex(merkleRoot(txids.map(fromDisplayHex))) !== block.merkleroot)
      fail(`merkle root mismatch at ${h}`);
    if (toDisplayHex(raw.subarray(36, 68)) !== block.merkleroot) fail(`header merkle root mismatch at ${h}`);
    let stripped = 80 + (raw.length - 80 - block.tx.reduce((s, t) => s + t.hex.length / 2, 0));
    let blockFees = 0;
    let coinbaseOut = 0;
    block.tx.forEach((t, i) => {
      const bytes = Buffer.from(t.hex, 'hex');
      if (raw.indexOf(bytes) < 0) fail(`tx ${t.txid} not in block bytes`);
      const { tx, end } = parseTx(bytes);
      if (end !== bytes.length) fail(`trailing bytes in ${t.txid}`);
      if (toDisplayHex(sha256d(serializeTx(tx, false))) !== t.txid) fail(`txid mismatch ${t.txid}`);
      if (toDisplayHex(sha256d(bytes)) !== t.hash) fail(`wtxid mismatch ${t.txid}`);
      const sz = txSizes(tx);
      if (sz.size !== t.size || sz.vsize !== t.vsize || sz.weight !== t.weight || sz.size !== bytes.length)
        fail(`size mismatch ${t.txid}`);
      stripped += sz.baseSize;
      txCount++;
      let inValue = 0;
      if (i === 0) {
        if (t.vin.length !== 1 || t.vin[0]?.coinbase === undefined) fail(`bad coinbase at ${h}`);
      } else {
        for (const v of t.vin) {
          const key = `${v.txid}:${v.vout}`;
          const prev = utxo.get(key);
          if (!prev) fail(`input ${key} of ${t.txid} spends a missing or spent output`);
          utxo.delete(key);
          inValue += (prev as { value: number }).value;
        }
      }
      let outValue = 0;
      for (const o of t.vout) {
        const v = units(o.value);
        outValue += v;
        if (o.scriptPubKey.type === 'nulldata') opReturnValue += v;
        else
          utxo.set(`${t.txid}:${o.n}`, {
            value: v,
            address: o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0],
          });
      }
      if (i === 0) coinbaseOut = outValue;
      else {
        const fee = inValue - outValue;
        if (fee <= 0) fail(`non-positive fee in ${t.txid}`);
        if (t.fee !== undefined && units(t.fee) !== fee) fail(`fee field mismatch in ${t.txid}`);
        blockFees += fee;
      }
    });
    if (stripped !== block.strippedsize) fail(`strippedsize mismatch at ${h}`);
    if (block.weight !== stripped * 3 + raw.length) fail(`weight mismatch at ${h}`);
    const halvings = Math.floor(h / opts.halvingInterval);
    const subsidy = halvings >= 64 ? 0 : Math.floor(5_000_000_000 / 2 ** halvings);
    if (coinbaseOut !== subsidy + blockFees)
      fail(`coinbase at ${h} claims ${coinbaseOut}, expected ${subsidy + blockFees}`);
    emitted += subsidy;
    fees += blockFees;
    const cb = block.tx[0] as RenderedTx;
    const cbAddresses = cb.vout.flatMap((o) => o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0] ?? []);
    const slug = attribute(cbAddresses, Buffer.from(cb.vin[0]?.coinbase ?? '', 'hex'));
    blocksByPool[slug] = (blocksByPool[slug] ?? 0) + 1;
    const miner = cbAddresses[0];
    if (miner) blocksByMiner[miner] = (blocksByMiner[miner] ?? 0) + 1;
    const cert = block.certificate as
      | { version: number; isMoE: boolean; proof: string; blockHash: string }
      | undefined;
    if (cert) {
      if (cert.blockHash !== hash) fail(`certificate blockHash mismatch at ${h}`);
      const len = cert.proof.length / 2;
      const pb = certificates.proofBytes;
      pb.min = certificates.total === 0 ? len : Math.min(pb.min, len);
      pb.max = Math.max(pb.max, len);
      pb.sum += len;
      certificates.total++;
      certificates.byVersion[cert.version] = (certificates.byVersion[cert.version] ?? 0) + 1;
      if (cert.isMoE) certificates.moe++;
    }
    prevHash = hash;
    tipHash = hash;
  }
  let utxoValue = 0;
  let burnAddressBalance = 0;
  for (const u of utxo.values()) {
    utxoValue += u.value;
    if (u.address && opts.burnAddresses.includes(u.address)) burnAddressBalance += u.value;
  }
  return {
    height,
    tipHash,
    txCount,
    emitted: String(emitted),
    fees: String(fees),
    opReturnValue: String(opReturnValue),
    burnAddressBalance: String(burnAddressBalance),
    utxoValue: String(utxoValue),
    utxoCount: utxo.size,
    blocksByPool,
    blocksByMiner,
    certificates,
  };
}
