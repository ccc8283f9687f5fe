import {
  type DecodedTx,
  pearlAddressScript,
  pearlScriptType,
  renderPearlTx,
  type TxPlacement,
  toDisplayHex,
} from '@explorer/chain';
import { RpcError } from '../rpc-error.js';
import { boolParam, intParam, usage } from '../rpc-params.js';

/** A transaction the search may list: confirmed ones with where they were mined, in chain order, then the mempool's. */
export interface SearchableTx {
  tx: DecodedTx;
  placed?: TxPlacement;
}

const ARGS = '"address" ( verbose skip count vinextra reverse ["filteraddr",...] )';

/**
 * pearld's `searchrawtransactions` (its address index, `--addrindex`): the transactions paying or spending an
 * address. As the real node answers: a P2MR address is refused ("not supported by the address index"), no
 * match is -5, and verbose entries carry `hash`, `size` and `vsize` as empty strings (in that order) and no
 * coinbase witness.
 */
export function searchRawTransactions(
  params: unknown[],
  hrp: string,
  txs: Iterable<SearchableTx>,
): unknown[] {
  const address = params[0];
  if (address === undefined || address === null) throw usage('searchrawtransactions', ARGS);
  if (typeof address !== 'string') throw new RpcError(-3, 'Invalid address or key');
  const script = pearlAddressScript(address, hrp);
  if (!script) throw new RpcError(-5, `Invalid address or key: ${address}`);
  if (pearlScriptType(script) !== 'witness_v1_taproot')
    throw new RpcError(-32603, 'address type is not supported by the address index');
  const verbose = boolParam(params, 1, true);
  const skip = Math.max(0, intParam(params, 2, 'searchrawtransactions', ARGS, 0));
  const count = Math.max(0, intParam(params, 3, 'searchrawtransactions', ARGS, 100));
  const reverse = boolParam(params, 5, false);
  const paying = new Set<string>();
  const hits: SearchableTx[] = [];
  for (const s of txs) {
    let hit = s.tx.inputs.some((i) => paying.has(`${toDisplayHex(i.prevTxid)}:${i.vout}`));
    for (const [n, o] of s.tx.outputs.entries()) {
      if (Buffer.compare(o.script, script) !== 0) continue;
      paying.add(`${s.tx.txid}:${n}`);
      hit = true;
    }
    if (hit) hits.push(s);
  }
  if (reverse) hits.reverse();
  const page = hits.slice(skip, skip + count);
  if (page.length === 0) throw new RpcError(-5, 'No information available about address');
  if (!verbose) return page.map((s) => Buffer.from(s.tx.bytes).toString('hex'));
  return page.map((s) => {
    const {
      hex,
      txid,
      hash: _h,
      size: _s,
      vsize: _v,
      version,
      locktime,
      vin,
      vout,
      ...placed
    } = renderPearlTx(s.tx, hrp, s.placed);
    const inputs = (vin as Record<string, unknown>[]).map((i) => {
      if (!('coinbase' in i)) return i;
      const { witness: _w, ...rest } = i;
      return rest;
    });
    return { hex, txid, hash: '', size: '', vsize: '', version, locktime, vin: inputs, vout, ...placed };
  });
}
