import { decodeTx } from '@explorer/chain';
import { NotFoundError, ServiceUnavailableError } from '../../errors.js';
import type { TxDetail, TxDetailOutput } from '../../store.js';
import type { AdapterContext } from '../adapter.js';

const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

interface NodeTxJson {
  hex?: string;
  vout?: { scriptPubKey?: { address?: string; addresses?: string[]; type?: string } }[];
}

const NODE_UNAVAILABLE = 'the chain node is unreachable to read the mempool';

/** The node's JSON of a transaction (`getrawtransaction <txid> true`); null when the node does not hold it. */
async function nodeTx(ctx: AdapterContext, txid: string): Promise<NodeTxJson | null> {
  const node = ctx.node;
  if (!node) return null;
  try {
    return (await node.call<NodeTxJson>('getrawtransaction', [txid, true])) ?? null;
  } catch (err) {
    // -5: no such transaction (in the mempool, or anywhere without -txindex).
    if ((err as { code?: unknown })?.code === -5) return null;
    throw new ServiceUnavailableError(NODE_UNAVAILABLE);
  }
}

/** The outputs of a node transaction, each with its address as the node names it. */
function nodeOutputs(json: NodeTxJson): TxDetailOutput[] {
  const decoded = decodeTx(Buffer.from(json.hex ?? '', 'hex'));
  return decoded.outputs.map((o, i) => {
    const spk = json.vout?.[i]?.scriptPubKey;
    return {
      value: o.value.toString(),
      script: hex(o.script),
      address: spk?.address ?? spk?.addresses?.[0] ?? null,
      scriptType: spk?.type ?? 'nonstandard',
    };
  });
}

/**
 * A transaction waiting in the node's mempool, in full: read from the node (its bytes and output addresses),
 * each input's prevout from the index or, for a parent that is itself unconfirmed, from the node. Null when
 * neither holds it, or when no node is configured.
 */
export async function mempoolTxDetail(ctx: AdapterContext, txid: string): Promise<TxDetail | null> {
  const json = await nodeTx(ctx, txid);
  if (!json?.hex) return null;
  const decoded = decodeTx(Buffer.from(json.hex, 'hex'));
  const parents = [...new Set(decoded.inputs.map((i) => hex(Buffer.from(i.prevTxid).reverse())))];
  const indexed = new Map((await ctx.store.getTxDetails(parents)).map((d) => [d.tx.txid, d.outputs]));
  for (const p of parents) {
    if (indexed.has(p)) continue;
    const parent = await nodeTx(ctx, p);
    if (parent?.hex) indexed.set(p, nodeOutputs(parent));
  }
  const outputs = nodeOutputs(json);
  let valueIn = 0n;
  const inputs = decoded.inputs.map((i) => {
    const prevTxid = hex(Buffer.from(i.prevTxid).reverse());
    const prevout = indexed.get(prevTxid)?.[i.vout] ?? null;
    if (!prevout)
      throw new NotFoundError(`transaction ${txid} spends ${prevTxid}:${i.vout}, which is unknown`);
    valueIn += BigInt(prevout.value);
    return {
      prevTxid,
      prevVout: i.vout,
      scriptSig: hex(i.scriptSig),
      witness: i.witness.map(hex),
      sequence: i.sequence,
      prevout,
    };
  });
  const valueOut = outputs.reduce((s, o) => s + BigInt(o.value), 0n);
  const fee = valueIn - valueOut;
  return {
    tx: {
      txid: decoded.txid,
      blockHeight: -1,
      blockHash: '',
      blockIndex: -1,
      time: 0,
      size: decoded.size,
      vsize: decoded.vsize,
      weight: decoded.weight,
      version: decoded.version,
      locktime: decoded.locktime,
      inputCount: inputs.length,
      outputCount: outputs.length,
      valueIn: valueIn.toString(),
      valueOut: valueOut.toString(),
      fee: fee.toString(),
      feeRate: decoded.vsize > 0 ? Math.round((Number(fee) / decoded.vsize) * 100) / 100 : 0,
      isCoinbase: false,
      type: 'transfer',
    },
    inputs,
    outputs,
  };
}
