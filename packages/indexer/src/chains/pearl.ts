import {
  ancestorHashes,
  certificateCommitment,
  certificateProblems,
  type DecodedPearlBlock,
  type DecodedTx,
  DecodeError,
  decodeDensePublicData,
  decodePearlBlock,
  decodeTx,
  isCoinbaseInput,
  isMoePublicData,
  PEARL_EMISSION_FORMULA,
  PEARL_MAX_BLOCK_VSIZE,
  PEARL_TARGET_BLOCK_SECONDS,
  PEARL_TOTAL_SUPPLY,
  type PearlNetwork,
  pearlScriptAddress,
  pearlScriptType,
  pearlSubsidy,
  ratioDifficulty,
  renderPearlBlock,
  toDisplayHex,
} from '@explorer/chain';
import type { Logger } from '@explorer/core';
import { MalformedBlockError } from '../ingest/errors.js';
import type { CertificateConfig, ParsedBlock, ParsedCertificate, ParsedTx } from '../ingest/parse.js';
import { fetchEachTx } from './fetch-txs.js';
import type { ChainInfo, ChainProfile } from './profile.js';

/** The calls pearld does not answer (absent, or "Command unimplemented"). */
export const PEARLD_UNSUPPORTED_CALLS = [
  'estimatesmartfee',
  'getblockstats',
  'getchaintxstats',
  'gettxoutsetinfo',
  'getmempoolentry',
];

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function parseTx(tx: DecodedTx, index: number, hrp: string): ParsedTx {
  const isCoinbase = index === 0 && tx.inputs.length === 1 && isCoinbaseInput(tx.inputs[0]!);
  const outputs = tx.outputs.map((o, vout) => {
    const scriptType = pearlScriptType(o.script);
    return {
      vout,
      value: o.value,
      address: pearlScriptAddress(o.script, hrp, scriptType),
      scriptType,
      scriptHex: hex(o.script),
    };
  });
  return {
    txid: tx.txid,
    index,
    // pearld shows the version unsigned.
    version: tx.version >>> 0,
    locktime: tx.locktime,
    size: tx.size,
    vsize: tx.vsize,
    weight: tx.weight,
    isCoinbase,
    inputs: tx.inputs.map((i, vin) => ({
      vin,
      prevTxid: isCoinbase ? null : toDisplayHex(i.prevTxid),
      prevVout: isCoinbase ? null : i.vout,
      sequence: i.sequence,
    })),
    outputs,
    // The bytes are stored; pearld's JSON of the transaction is rendered from them when asked for.
    raw: null,
    hex: hex(tx.bytes),
  };
}

function configOf(publicData: Uint8Array): CertificateConfig {
  const d = decodeDensePublicData(publicData);
  return {
    ...d.config,
    hashA: d.hashA,
    hashB: d.hashB,
    hashJackpot: d.hashJackpot,
    m: d.m,
    n: d.n,
    tRows: d.tRows,
    tCols: d.tCols,
    moe: d.moe,
  };
}

/** The certificate of a decoded block as the indexer stores it; null for a null (version 0) certificate. */
export function parseCertificate(block: DecodedPearlBlock): ParsedCertificate | null {
  const header = block.header;
  const c = block.certificate;
  if (!c) {
    const bytes = block.certificateBytes;
    return {
      version: bytes.length >= 4 ? Buffer.from(bytes).readUInt32LE(0) : -1,
      readable: false,
      error: block.certificateError,
      proofCommitment: header.proofCommitment,
      computedCommitment: null,
      problems: [],
      blockHash: null,
      layout: null,
      size: bytes.length,
      publicData: null,
      proof: null,
      proofSize: 0,
      ancestorHashes: [],
      isMoE: false,
      config: null,
      configError: null,
      raw: bytes,
    };
  }
  if (c.version === 0) return null;
  let config: CertificateConfig | null = null;
  let configError: string | null = null;
  if (c.version <= 3 && c.publicData) {
    try {
      config = configOf(c.publicData);
    } catch (err) {
      if (!(err instanceof DecodeError)) throw err;
      configError = `public data does not follow the version 1–3 layout: ${err.message}`;
    }
  }
  return {
    version: c.version,
    readable: true,
    error: null,
    proofCommitment: header.proofCommitment,
    computedCommitment: certificateCommitment(c),
    problems: certificateProblems(c, header),
    blockHash: c.blockHash,
    layout: c.layout,
    size: c.bytes.length,
    publicData: c.publicData,
    proof: c.proof,
    proofSize: c.proof.length,
    ancestorHashes: ancestorHashes(c),
    isMoE: isMoePublicData(c.version, c.publicData?.length ?? 0),
    config,
    configError,
    raw: null,
  };
}

/**
 * Pearl (pearld): each block read once as bytes (`getblock <hash> 0`) and decoded here — the certificate,
 * the 108-byte header (its hash must be the one asked for), the transactions — with Pearl's emission, bech32m
 * addresses of the network's HRP, and pearld's difficulty.
 */
export function pearlProfile(opts: {
  network: PearlNetwork;
  genesisHash: string;
  knownGenesis: boolean;
  log: Logger;
}): ChainProfile {
  const { network, log } = opts;
  const checkpoints = new Map(opts.knownGenesis ? network.checkpoints.map((c) => [c.height, c.hash]) : []);
  const info: ChainInfo = {
    profile: 'pearl',
    network: network.name,
    name: `Pearl ${network.name}`,
    genesisHash: opts.genesisHash,
    knownGenesis: opts.knownGenesis,
    units: { symbol: 'PRL', baseUnit: 'grain', decimals: 8 },
    addresses: { bech32Hrp: network.hrp, mwebHrp: null, base58: null },
    emissionFormula: PEARL_EMISSION_FORMULA,
    maxSupply: PEARL_TOTAL_SUPPLY.toString(),
    certificateForks: opts.knownGenesis ? { ...network.forks } : null,
    unsupportedCalls: PEARLD_UNSUPPORTED_CALLS,
    blockSeconds: PEARL_TARGET_BLOCK_SECONDS,
    maxBlockVsize: PEARL_MAX_BLOCK_VSIZE,
  };

  function toParsed(bytes: Buffer, height: number, hash: string, prevHash: string | null): ParsedBlock {
    let d: DecodedPearlBlock;
    try {
      d = decodePearlBlock(bytes, hash, { prevHash });
    } catch (err) {
      if (err instanceof DecodeError)
        throw new MalformedBlockError(`block ${height} (${hash}): ${err.message}`);
      throw err;
    }
    const h = d.header;
    const certificate = parseCertificate(d);
    if (certificate && !certificate.readable) {
      log.warn(
        { height, hash, version: certificate.version, bytes: certificate.size, error: certificate.error },
        'certificate could not be decoded; its bytes are kept as they are',
      );
    }
    const difficulty = ratioDifficulty(network.powLimitBits, h.bits);
    const txs = d.txs.map((t, i) => parseTx(t, i, network.hrp));
    const coinbase = txs[0]?.isCoinbase ? hex(d.txs[0]!.inputs[0]!.scriptSig) : '';
    return {
      hash,
      height,
      // pearld names an all-zero parent for genesis.
      prevHash: height === 0 ? null : h.prevHash,
      time: h.time,
      medianTime: null,
      version: h.version,
      merkleRoot: h.merkleRoot,
      bits: h.bits.toString(16),
      nonce: null,
      difficulty,
      chainwork: null,
      size: d.size,
      strippedSize: d.strippedSize,
      weight: d.weight,
      txs,
      coinbaseHex: coinbase,
      scheduledSubsidy: pearlSubsidy(height),
      certificate,
      // As text here, where the block is decoded: the writer's thread only stores it.
      raw: JSON.stringify(renderPearlBlock(d, network.hrp, { height, difficulty }, 1)),
    };
  }

  return {
    info,
    async fetchBlocks(node, heights, hashes, prevHash) {
      const hexes = await node.batch<string>(hashes.map((h) => ({ method: 'getblock', params: [h, 0] })));
      let prev = prevHash;
      return hexes.map((x, i) => {
        // Buffer.from stops at the first character that is not hex: a shorter result means the answer was not hex.
        const bytes = typeof x === 'string' ? Buffer.from(x, 'hex') : Buffer.alloc(0);
        if (typeof x !== 'string' || bytes.length * 2 !== x.length)
          throw new MalformedBlockError(`getblock ${hashes[i]} 0 did not answer with the block's hex`);
        const parsed = toParsed(bytes, heights[i]!, hashes[i]!, prev);
        prev = hashes[i]!;
        return parsed;
      });
    },
    checkpoint: (height) => checkpoints.get(height),
    // Read as bytes, like blocks, and decoded here: the same parsing serves both.
    fetchTxs: (node, txids) =>
      fetchEachTx<unknown, ParsedTx>(node, txids, 'getrawtransaction', [false], (x, txid) => {
        const bytes = typeof x === 'string' ? Buffer.from(x, 'hex') : Buffer.alloc(0);
        if (typeof x !== 'string' || bytes.length === 0 || bytes.length * 2 !== x.length) return null;
        try {
          const tx = decodeTx(bytes);
          return tx.txid === txid ? parseTx(tx, -1, network.hrp) : null;
        } catch (err) {
          if (err instanceof DecodeError) return null;
          throw err;
        }
      }),
  };
}
