/** One output as the indexer stores it. */
export interface ParsedOutput {
  vout: number;
  value: number;
  address: string | null;
  scriptType: string;
  scriptHex: string;
}

/** One input: the outpoint it spends (null for a coinbase). */
export interface ParsedInput {
  vin: number;
  prevTxid: string | null;
  prevVout: number | null;
  sequence: number;
}

/** A transaction in a block. */
export interface ParsedTx {
  txid: string;
  index: number;
  version: number;
  locktime: number;
  size: number;
  vsize: number;
  weight: number;
  isCoinbase: boolean;
  inputs: ParsedInput[];
  outputs: ParsedOutput[];
  raw: unknown;
}

/** A block certificate of the chain-native extension. */
export interface ParsedCertificate {
  version: number;
  proofCommitment: string;
  publicData: string;
  proof: Uint8Array | null;
  proofSize: number;
  isMoE: boolean;
}

/** A block, ready to be written. */
export interface ParsedBlock {
  hash: string;
  height: number;
  prevHash: string | null;
  time: number;
  medianTime: number;
  version: number;
  merkleRoot: string;
  bits: string;
  nonce: number;
  difficulty: number;
  chainwork: string;
  size: number;
  strippedSize: number | null;
  weight: number | null;
  txs: ParsedTx[];
  coinbaseHex: string;
  certificate: ParsedCertificate | null;
  /** The node's block JSON with `tx` reduced to txids, the certificate proof and the fields that change later left out. */
  raw: Record<string, unknown>;
}

/** The node sent a block the indexer cannot read at all (a missing hash, height or tx list). */
export class MalformedBlockError extends Error {
  override readonly name = 'MalformedBlockError';
}

const HEX = /^[0-9a-fA-F]*$/;

/** Converts a coin amount as JSON-RPC gives it (8 decimals) to integer base units. */
export function toBaseUnits(coins: unknown): number {
  const n = typeof coins === 'number' ? coins : Number(coins);
  if (!Number.isFinite(n) || n < 0) return 0;
  return Math.round(n * 1e8);
}

const num = (v: unknown, fallback = 0): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The single address a scriptPubKey pays to, from `address` (Core ≥ 22) or a one-element `addresses` (older). */
export function outputAddress(spk: Record<string, unknown> | undefined): string | null {
  if (!spk) return null;
  const a = str(spk.address);
  if (a) return a;
  const list = spk.addresses;
  if (Array.isArray(list) && list.length === 1 && typeof list[0] === 'string') return list[0];
  return null;
}

function parseTx(t: Record<string, unknown>, index: number): ParsedTx {
  const txid = str(t.txid);
  if (txid?.length !== 64 || !HEX.test(txid))
    throw new MalformedBlockError(`transaction ${index} has no valid txid`);
  const vin = Array.isArray(t.vin) ? (t.vin as Record<string, unknown>[]) : [];
  const vout = Array.isArray(t.vout) ? (t.vout as Record<string, unknown>[]) : [];
  const isCoinbase = vin.length > 0 && typeof vin[0]?.coinbase === 'string';
  const inputs: ParsedInput[] = [];
  vin.forEach((i, n) => {
    const prev = str(i.txid);
    inputs.push({
      vin: n,
      prevTxid: isCoinbase || !prev ? null : prev,
      prevVout: isCoinbase || !prev ? null : num(i.vout),
      sequence: num(i.sequence),
    });
  });
  const outputs = vout.map((o, n): ParsedOutput => {
    const spk = (o.scriptPubKey ?? {}) as Record<string, unknown>;
    return {
      vout: typeof o.n === 'number' ? o.n : n,
      value: toBaseUnits(o.value),
      address: outputAddress(spk),
      scriptType: str(spk.type) ?? 'unknown',
      scriptHex: str(spk.hex) ?? '',
    };
  });
  const size = num(t.size);
  const weight = num(t.weight, size * 4);
  return {
    txid,
    index,
    version: num(t.version),
    locktime: num(t.locktime),
    size,
    vsize: num(t.vsize, Math.ceil(weight / 4)),
    weight,
    isCoinbase,
    inputs,
    outputs,
    raw: t,
  };
}

function parseCertificate(c: unknown): ParsedCertificate | null {
  if (!c || typeof c !== 'object') return null;
  const o = c as Record<string, unknown>;
  const version = num(o.version);
  if (version < 1) return null;
  const proofHex = str(o.proof);
  const proof =
    proofHex && HEX.test(proofHex) && proofHex.length % 2 === 0 ? Buffer.from(proofHex, 'hex') : null;
  return {
    version,
    proofCommitment: str(o.proofCommitment) ?? '',
    publicData: str(o.publicData) ?? '',
    proof: proof ? new Uint8Array(proof) : null,
    proofSize: proof ? proof.length : num(o.proofSize),
    isMoE: o.isMoE === true,
  };
}

/**
 * Reads a `getblock <hash> 2` answer of any Bitcoin-Core-compatible node. Fields it does not know are kept in
 * `raw` and otherwise ignored; only a block without hash, height or transactions is refused.
 */
export function parseBlock(b: unknown): ParsedBlock {
  if (!b || typeof b !== 'object') throw new MalformedBlockError('block is not an object');
  const o = b as Record<string, unknown>;
  const hash = str(o.hash);
  if (hash?.length !== 64 || !HEX.test(hash)) throw new MalformedBlockError('block has no valid hash');
  if (typeof o.height !== 'number') throw new MalformedBlockError(`block ${hash} has no height`);
  if (!Array.isArray(o.tx) || o.tx.length === 0)
    throw new MalformedBlockError(`block ${hash} has no transactions`);
  if (typeof o.tx[0] !== 'object')
    throw new MalformedBlockError(`block ${hash} was not fetched with verbosity 2`);
  const txs = (o.tx as Record<string, unknown>[]).map(parseTx);
  const coinbase = txs[0]!.isCoinbase
    ? (((o.tx as Record<string, unknown>[])[0]!.vin as Record<string, unknown>[])[0]!.coinbase as string)
    : '';
  // confirmations and nextblockhash change after the block is stored; the API derives them from the tip.
  const { tx: _tx, certificate, confirmations: _c, nextblockhash: _n, ...header } = o;
  const cert = parseCertificate(certificate);
  const raw: Record<string, unknown> = { ...header, tx: txs.map((t) => t.txid) };
  if (cert) {
    const { proof: _proof, ...meta } = certificate as Record<string, unknown>;
    raw.certificate = meta;
  }
  const time = num(o.time);
  return {
    hash,
    height: o.height,
    prevHash: str(o.previousblockhash),
    time,
    medianTime: num(o.mediantime, time),
    version: num(o.version),
    merkleRoot: str(o.merkleroot) ?? '',
    bits: str(o.bits) ?? '',
    nonce: num(o.nonce),
    difficulty: num(o.difficulty),
    chainwork: str(o.chainwork) ?? '',
    size: num(o.size),
    strippedSize: typeof o.strippedsize === 'number' ? o.strippedsize : null,
    weight: typeof o.weight === 'number' ? o.weight : null,
    txs,
    coinbaseHex: coinbase,
    certificate: cert,
    raw,
  };
}
