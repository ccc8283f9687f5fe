import {
  certificateProblems,
  certificateStatus,
  decodeDensePublicData,
  decodePearlBlock,
  decodeTx,
  fromDisplayHex,
  isMoePublicData,
  merkleRoot,
  pearlSubsidy,
  sha256d,
  toDisplayHex,
} from '@explorer/chain';
import type { DialectName } from './chain/dialect.js';
import { makeAttributor, type PoolDefinition } from './chain/pools.js';
import { type ChainTruthData, countCertificate, emptyCertificateTruth } from './truth.js';

/** Any way of calling the devnet's RPC (in-process or over HTTP). */
export type RpcCall = (method: string, params?: unknown[]) => Promise<unknown>;

interface RenderedTx {
  txid: string;
  hash: string;
  size: number;
  vsize: number;
  weight?: number;
  hex: string;
  fee?: number;
  vin: { coinbase?: string; txid?: string; vout?: number }[];
  vout: {
    value: number;
    n: number;
    scriptPubKey: { address?: string; addresses?: string[]; type: string };
  }[];
}

const units = (coins: number) => BigInt(Math.round(coins * 1e8));

/**
 * Recomputes the chain's figures independently by walking getblock over RPC, checking encodings (txid, wtxid,
 * sizes, merkle root, header hash; Pearl's certificate and proof commitment) and that every input spends an
 * existing unspent output once. Throws on the first inconsistency. Used by the tests; handy for anyone
 * validating an indexer against the devnet.
 */
export async function auditChain(
  call: RpcCall,
  opts: { pools: PoolDefinition[]; burnAddresses: string[]; halvingInterval: number; dialect?: DialectName },
): Promise<Omit<ChainTruthData, 'busyAddresses'>> {
  const pearl = (opts.dialect ?? 'pearl') === 'pearl';
  const attribute = makeAttributor(opts.pools);
  const height = (await call('getblockcount')) as number;
  const utxo = new Map<string, { value: bigint; address?: string }>();
  let emitted = 0n;
  let unclaimed = 0n;
  let fees = 0n;
  let opReturnValue = 0n;
  let txCount = 0;
  const blocksByPool: Record<string, number> = {};
  const blocksByMiner: Record<string, number> = {};
  const certificates = emptyCertificateTruth();
  const count = (rec: Record<string, number>, key: string | number) => {
    rec[key] = (rec[key] ?? 0) + 1;
  };
  let prevHash: string | undefined = pearl ? '0'.repeat(64) : undefined;
  let tipHash = '';
  const fail = (msg: string): never => {
    throw new Error(msg);
  };
  for (let h = 0; h <= height; h++) {
    const hash = (await call('getblockhash', [h])) as string;
    const block = (await call('getblock', [hash, 2])) as Record<string, unknown>;
    const txs = (pearl ? block.rawtx : block.tx) as RenderedTx[];
    const raw = Buffer.from((await call('getblock', [hash, 0])) as string, 'hex');
    let body = raw;
    if (pearl) {
      const decoded = decodePearlBlock(raw, hash);
      body = raw.subarray(decoded.certificateBytes.length);
      if (decoded.strippedSize !== block.strippedsize) fail(`strippedsize mismatch at ${h}`);
      if (decoded.vsize !== block.vsize) fail(`vsize mismatch at ${h}`);
      if (decoded.header.proofCommitment !== block.proofcommitment) fail(`proofcommitment mismatch at ${h}`);
      const c =
        decoded.certificate ?? fail(`certificate of ${h} does not decode: ${decoded.certificateError}`);
      const binds = certificateProblems(c, decoded.header).length === 0;
      const status = certificateStatus({
        readable: true,
        binds,
        proofCommitment: decoded.header.proofCommitment,
      });
      if (h > 0 && status === 'failed') certificates.commitmentFailures++;
      let shape = null;
      if (h > 0 && c.version <= 3 && c.publicData) {
        const pd = decodeDensePublicData(c.publicData);
        shape = { m: pd.m, n: pd.n, k: pd.config.commonDim, rank: pd.config.rank };
      }
      countCertificate(certificates, h, {
        version: c.version,
        proofLength: c.proof.length,
        isMoE: isMoePublicData(c.version, c.publicData?.length ?? 0),
        shape,
      });
    } else if (toDisplayHex(sha256d(raw.subarray(0, 80))) !== hash) fail(`header hash mismatch at ${h}`);
    if (block.previousblockhash !== prevHash) fail(`previousblockhash mismatch at ${h}`);
    if (raw.length !== block.size) fail(`block size mismatch at ${h}`);
    const txids = txs.map((t) => t.txid);
    if (toDisplayHex(merkleRoot(txids.map(fromDisplayHex))) !== block.merkleroot)
      fail(`merkle root mismatch at ${h}`);
    if (toDisplayHex(body.subarray(36, 68)) !== block.merkleroot) fail(`header merkle root mismatch at ${h}`);
    const headerSize = pearl ? 108 : 80;
    let stripped = headerSize + (body.length - headerSize - txs.reduce((s, t) => s + t.hex.length / 2, 0));
    let blockFees = 0n;
    let coinbaseOut = 0n;
    txs.forEach((t, i) => {
      const bytes = Buffer.from(t.hex, 'hex');
      if (raw.indexOf(bytes) < 0) fail(`tx ${t.txid} not in block bytes`);
      const tx = decodeTx(bytes);
      if (tx.txid !== t.txid) fail(`txid mismatch ${t.txid}`);
      if (tx.wtxid !== t.hash) fail(`wtxid mismatch ${t.txid}`);
      if (tx.size !== t.size || tx.vsize !== t.vsize || (t.weight !== undefined && tx.weight !== t.weight))
        fail(`size mismatch ${t.txid}`);
      stripped += tx.baseSize;
      txCount++;
      let inValue = 0n;
      if (i === 0) {
        if (t.vin.length !== 1 || t.vin[0]?.coinbase === undefined) fail(`bad coinbase at ${h}`);
      } else {
        for (const v of t.vin) {
          const key = `${v.txid}:${v.vout}`;
          const prev = utxo.get(key);
          if (!prev) fail(`input ${key} of ${t.txid} spends a missing or spent output`);
          utxo.delete(key);
          inValue += (prev as { value: bigint }).value;
        }
      }
      let outValue = 0n;
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
        if (fee <= 0n) fail(`non-positive fee in ${t.txid}`);
        if (t.fee !== undefined && units(t.fee) !== fee) fail(`fee field mismatch in ${t.txid}`);
        blockFees += fee;
      }
    });
    if (stripped !== block.strippedsize) fail(`strippedsize mismatch at ${h}`);
    if (!pearl && block.weight !== stripped * 3 + raw.length) fail(`weight mismatch at ${h}`);
    let subsidy: bigint;
    if (pearl) subsidy = pearlSubsidy(h);
    else {
      const halvings = Math.floor(h / opts.halvingInterval);
      subsidy = halvings >= 64 ? 0n : BigInt(Math.floor(5_000_000_000 / 2 ** halvings));
    }
    // Pearl lets a coinbase claim less than it may; Core's devnet always claims exactly.
    const left = subsidy + blockFees - coinbaseOut;
    if (left < 0n || (!pearl && left !== 0n))
      fail(
        `coinbase at ${h} claims ${coinbaseOut}, expected ${pearl ? 'at most ' : ''}${subsidy + blockFees}`,
      );
    emitted += subsidy;
    unclaimed += left;
    fees += blockFees;
    const cb = txs[0] as RenderedTx;
    const cbAddresses = cb.vout.flatMap((o) => o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0] ?? []);
    const slug = attribute(cbAddresses, Buffer.from(cb.vin[0]?.coinbase ?? '', 'hex'));
    count(blocksByPool, slug);
    const miner = cbAddresses[0];
    if (miner) count(blocksByMiner, miner);
    prevHash = hash;
    tipHash = hash;
  }
  let utxoValue = 0n;
  let burnAddressBalance = 0n;
  for (const u of utxo.values()) {
    utxoValue += u.value;
    if (u.address && opts.burnAddresses.includes(u.address)) burnAddressBalance += u.value;
  }
  return {
    height,
    tipHash,
    txCount,
    emitted: String(emitted),
    unclaimed: String(unclaimed),
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
