import { esploraAsm, type ScriptOp, scriptOps } from '@explorer/chain';
import type { BlockRecord, TxDetail, TxDetailOutput, TxRecord } from '../../store.js';

/**
 * Esplora's JSON, as electrs writes it: snake_case, values as integer base units (JSON numbers), scripts as hex
 * with their asm beside them. Field order follows electrs's structs, so bodies compare byte for byte.
 */

/** The txid and vout of a coinbase input, as electrs writes them. */
const NULL_TXID = '0'.repeat(64);
const COINBASE_VOUT = 0xffff_ffff;

const bytes = (hex: string) => Buffer.from(hex, 'hex');

/**
 * A value in base units as a JSON number. Every single output of the chains served fits within 2^53 (Bitcoin's
 * and Litecoin's supply do, and Pearl's 2.1 × 10^15 grains do), so a number is exact; a sum past it (never
 * reached by a real chain) would lose precision like any JSON client's, which is why Esplora itself uses numbers.
 */
const units = (text: string) => Number(text);

/** The script type electrs names, from the script alone (its order of checks). */
export function esploraScriptType(script: Uint8Array): string {
  const n = script.length;
  const at = (i: number) => script[i] as number;
  if (n === 0) return 'empty';
  if (at(0) === 0x6a) return 'op_return';
  if ((n === 35 && at(0) === 33 && at(34) === 0xac) || (n === 67 && at(0) === 65 && at(66) === 0xac))
    return 'p2pk';
  if (n === 25 && at(0) === 0x76 && at(1) === 0xa9 && at(2) === 20 && at(23) === 0x88 && at(24) === 0xac)
    return 'p2pkh';
  if (n === 23 && at(0) === 0xa9 && at(1) === 20 && at(22) === 0x87) return 'p2sh';
  if (n === 22 && at(0) === 0 && at(1) === 20) return 'v0_p2wpkh';
  if (n === 34 && at(0) === 0 && at(1) === 32) return 'v0_p2wsh';
  if (n === 34 && at(0) === 0x51 && at(1) === 32) return 'v1_p2tr';
  return 'unknown';
}

/** An output as electrs writes it (`scriptpubkey_address` left out when it has none). */
export function esploraOutput(o: TxDetailOutput): Record<string, unknown> {
  const script = bytes(o.script);
  const out: Record<string, unknown> = {
    scriptpubkey: o.script,
    scriptpubkey_asm: esploraAsm(script),
    scriptpubkey_type: esploraScriptType(script),
  };
  if (o.address !== null) out.scriptpubkey_address = o.address;
  out.value = units(o.value);
  return out;
}

/** The confirmation status of a transaction in an indexed block (or of one waiting in the mempool: null). */
export function esploraTxStatus(tx: Pick<TxRecord, 'blockHeight' | 'blockHash' | 'time'> | null) {
  if (!tx) return { confirmed: false };
  return { confirmed: true, block_height: tx.blockHeight, block_hash: tx.blockHash, block_time: tx.time };
}

/** What a scriptSig's last instruction pushes (a P2SH input's redeem script), as electrs reads it; null when it pushes nothing. */
function lastPush(scriptSig: Uint8Array): Uint8Array | null {
  let last: ScriptOp | null = null;
  for (const op of scriptOps(scriptSig)) last = op;
  return last?.data ?? null;
}

/**
 * A transaction as Esplora's `/tx/:txid` writes it. `status` is that of its block (null: the mempool's). The fee
 * is the index's (value in − value out; 0 for a coinbase).
 */
export function esploraTx(detail: TxDetail, confirmed = true): Record<string, unknown> {
  const { tx } = detail;
  const vin = detail.inputs.map((i) => {
    const coinbase = i.prevTxid === null;
    const scriptSig = bytes(i.scriptSig);
    const entry: Record<string, unknown> = {
      txid: coinbase ? NULL_TXID : i.prevTxid,
      vout: coinbase ? COINBASE_VOUT : i.prevVout,
      prevout: i.prevout ? esploraOutput(i.prevout) : null,
      scriptsig: i.scriptSig,
      scriptsig_asm: esploraAsm(scriptSig),
    };
    if (i.witness.length > 0) entry.witness = i.witness;
    entry.is_coinbase = coinbase;
    entry.sequence = i.sequence;
    const spentType = i.prevout ? esploraScriptType(bytes(i.prevout.script)) : null;
    // P2SH: the redeem script its scriptSig pushes last; P2WSH, bare or nested in one: the last witness item.
    const redeem = spentType === 'p2sh' ? lastPush(scriptSig) : null;
    if (redeem) entry.inner_redeemscript_asm = esploraAsm(redeem);
    const witnessScript = spentType === 'v0_p2wsh' || (redeem && esploraScriptType(redeem) === 'v0_p2wsh');
    if (witnessScript && i.witness.length > 0)
      entry.inner_witnessscript_asm = esploraAsm(bytes(i.witness[i.witness.length - 1]!));
    return entry;
  });
  return {
    txid: tx.txid,
    version: tx.version,
    locktime: tx.locktime,
    vin,
    vout: detail.outputs.map(esploraOutput),
    size: tx.size,
    weight: tx.weight,
    fee: units(tx.fee),
    status: esploraTxStatus(confirmed ? tx : null),
  };
}

/** A block as Esplora's `/block/:hash` writes it (`previousblockhash` null for the first block). */
export function esploraBlock(b: BlockRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: b.hash,
    height: b.height,
    version: b.version,
    timestamp: b.time,
    tx_count: b.txCount,
    size: b.size,
    weight: b.weight ?? b.size * 4,
    merkle_root: b.merkleRoot,
  };
  out.previousblockhash = b.previousHash;
  out.mediantime = b.medianTime;
  // Pearl's header has no nonce: 0, which no client reads as meaningful.
  out.nonce = b.nonce ?? 0;
  out.bits = Number.parseInt(b.bits, 16);
  out.difficulty = b.difficulty;
  return out;
}

/**
 * A block as mempool.space's `/api/v1/block/:hash` writes it: Esplora's block and `extras`, of which the
 * figures the index holds (fees, reward, pool, the coinbase's address, virtual size); the rest of mempool.space's
 * extras (fee percentiles, segwit totals, audit figures) are left out rather than made up.
 */
export function esploraBlockExtended(b: BlockRecord): Record<string, unknown> {
  return {
    ...esploraBlock(b),
    extras: {
      totalFees: units(b.fees),
      reward: units(b.reward),
      pool:
        b.pool.id === 'unknown'
          ? { id: 0, name: 'Unknown', slug: 'unknown', minerNames: null }
          : { id: 0, name: b.pool.name, slug: b.pool.id, minerNames: null },
      coinbaseRaw: b.coinbaseHex,
      coinbaseAddress: b.miner.address,
      totalInputs: b.inputCount,
      totalOutputs: b.outputCount,
      totalOutputAmt: units(b.valueOut),
      virtualSize: (b.weight ?? b.size * 4) / 4,
    },
  };
}

/**
 * A block's place in the best chain, as Esplora's `/block/:hash/status` writes it; null (a hash the index does
 * not hold: unknown, or stale after a reorg) is not in it.
 */
export function esploraBlockStatus(b: Pick<BlockRecord, 'height' | 'nextHash'> | null) {
  if (!b) return { in_best_chain: false, height: null, next_best: null };
  return { in_best_chain: true, height: b.height, next_best: b.nextHash };
}

/** Address statistics as Esplora counts them (one side: the chain's or the mempool's). */
export interface EsploraStats {
  funded_txo_count: number;
  funded_txo_sum: number;
  spent_txo_count: number;
  spent_txo_sum: number;
  tx_count: number;
}

/**
 * electrs's fee histogram of the mempool: `[fee rate, vsize]` pairs, highest rate first, each bin holding at
 * least 50,000 vbytes (the last whatever remains), a bin ending only where the rate changes.
 */
export function feeHistogram(entries: readonly { fee: number; vsize: number }[]): [number, number][] {
  const rated = entries
    .filter((e) => e.vsize > 0)
    .map((e) => ({ rate: e.fee / e.vsize, vsize: e.vsize }))
    .sort((a, b) => b.rate - a.rate);
  const out: [number, number][] = [];
  let bin = 0;
  let last = 0;
  for (const e of rated) {
    if (bin > 50_000 && last !== e.rate) {
      out.push([last, bin]);
      bin = 0;
    }
    last = e.rate;
    bin += e.vsize;
  }
  if (bin > 0) out.push([last, bin]);
  return out;
}
