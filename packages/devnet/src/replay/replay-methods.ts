import {
  type PearlNetwork,
  ratioDifficulty,
  renderPearlBlock,
  renderPearlHeader,
  renderPearlTx,
} from '@explorer/chain';
import { chainTips } from '../pearld/chain-tips.js';
import { pearldHelp } from '../pearld/help.js';
import { type SearchableTx, searchRawTransactions } from '../pearld/search.js';
import { bip9Softforks } from '../pearld/softforks.js';
import { pearldVersion } from '../pearld/version.js';
import { RpcError } from '../rpc-error.js';
import { boolParam, hashParam, intParam, verbosityParam } from '../rpc-params.js';
import type { ReplayBlock, ReplayChain } from './replay-chain.js';

/** What the replaying node's calls need. */
export interface ReplayContext {
  chain: ReplayChain;
  network: PearlNetwork;
  /** The chain name getblockchaininfo gives. */
  chainName: string;
  /** Reveals the next n blocks; returns their hashes. */
  step(n: number): string[];
}

type Method = (params: unknown[], ctx: ReplayContext) => unknown;

const TX_NOT_FOUND = 'No such mempool or blockchain transaction. Use gettransaction for wallet transactions.';

function byHash(ctx: ReplayContext, params: unknown[], method: string, args: string): ReplayBlock {
  const b = ctx.chain.get(hashParam(params, 0, method, args, 'blockhash'));
  if (!b) throw new RpcError(-5, 'Block not found');
  return b;
}

const difficulty = (ctx: ReplayContext, b: ReplayBlock) =>
  ratioDifficulty(ctx.network.powLimitBits, b.decoded.header.bits);
const confirmations = (ctx: ReplayContext, b: ReplayBlock) => ctx.chain.tip.height - b.height + 1;

/** pearld answers verbose requests only for main-chain blocks. */
function placement(ctx: ReplayContext, b: ReplayBlock) {
  if (!ctx.chain.isBest(b))
    throw new RpcError(-32603, `Failed to obtain block height: block ${b.hash} is not in the main chain`);
  return {
    height: b.height,
    difficulty: difficulty(ctx, b),
    confirmations: confirmations(ctx, b),
    nextHash: ctx.chain.best[b.height + 1]?.hash ?? null,
  };
}

function medianTime(ctx: ReplayContext, b: ReplayBlock): number {
  const times = ctx.chain.best
    .slice(Math.max(0, b.height - 10), b.height + 1)
    .map((x) => x.decoded.header.time);
  return times.sort((x, y) => x - y)[Math.floor(times.length / 2)] as number;
}

function* searchable(ctx: ReplayContext): Generator<SearchableTx> {
  for (const b of ctx.chain.best) {
    const placed = { blockHash: b.hash, time: b.decoded.header.time, confirmations: confirmations(ctx, b) };
    for (const tx of b.decoded.txs) yield { tx, placed };
  }
}

/** The calls a replaying node answers, in pearld's shapes (as the generated devnet's Pearl dialect). */
const METHODS: Record<string, Method> = {
  getblockcount: (_p, ctx) => ctx.chain.tip.height,
  getbestblockhash: (_p, ctx) => ctx.chain.tip.hash,
  getbestblock: (_p, ctx) => ({ hash: ctx.chain.tip.hash, height: ctx.chain.tip.height }),
  getdifficulty: (_p, ctx) => difficulty(ctx, ctx.chain.tip),
  getblockhash: (p, ctx) => {
    const h = intParam(p, 0, 'getblockhash', 'index', undefined);
    const b = ctx.chain.best[h];
    if (h < 0 || !b) throw new RpcError(-8, 'Block height out of range');
    return b.hash;
  },
  getblock: (p, ctx) => {
    const b = byHash(ctx, p, 'getblock', '"hash" ( verbosity )');
    const verbosity = verbosityParam(p[1]);
    if (verbosity <= 0) return b.bytes.toString('hex');
    return renderPearlBlock(b.decoded, ctx.network.hrp, placement(ctx, b), verbosity >= 2 ? 2 : 1);
  },
  getblockheader: (p, ctx) => {
    const b = byHash(ctx, p, 'getblockheader', '"hash" ( verbose )');
    if (!boolParam(p, 1, true)) return Buffer.from(b.decoded.header.bytes).toString('hex');
    return renderPearlHeader(b.decoded.header, placement(ctx, b));
  },
  getblockchaininfo: (_p, ctx) => {
    const t = ctx.chain.tip;
    return {
      chain: ctx.chainName,
      blocks: t.height,
      headers: t.height,
      bestblockhash: t.hash,
      difficulty: difficulty(ctx, t),
      mediantime: medianTime(ctx, t),
      pruned: false,
      bip9_softforks: bip9Softforks(t.height),
    };
  },
  getchaintips: (_p, ctx) => chainTips(ctx.chain.known(), (hash) => ctx.chain.isBest(ctx.chain.get(hash)!)),
  getrawmempool: (p) => (boolParam(p, 0, false) ? {} : []),
  getmempoolinfo: () => ({ size: 0, bytes: 0, cap: 300_000_000 }),
  getmempoolentry: () => {
    throw new RpcError(-1, 'Command unimplemented');
  },
  getrawtransaction: (p, ctx) => {
    const txid = hashParam(p, 0, 'getrawtransaction', '"txid" ( verbose )', 'parameter 1');
    const at = ctx.chain.locate(txid);
    if (!at) throw new RpcError(-5, TX_NOT_FOUND);
    const tx = at.block.decoded.txs[at.index]!;
    if (!boolParam(p, 1, false)) return Buffer.from(tx.bytes).toString('hex');
    const placed = {
      blockHash: at.block.hash,
      time: at.block.decoded.header.time,
      confirmations: confirmations(ctx, at.block),
    };
    return renderPearlTx(tx, ctx.network.hrp, placed);
  },
  getnetworkhashps: (p, ctx) => {
    let lookup = intParam(p, 0, 'getnetworkhashps', '( blocks height )', 120);
    const height = intParam(p, 1, 'getnetworkhashps', '( blocks height )', -1);
    const best = ctx.chain.best;
    const end = height >= 0 && height < best.length ? (best[height] as ReplayBlock) : ctx.chain.tip;
    if (end.height === 0) return 0;
    if (lookup <= 0 || lookup > end.height) lookup = end.height;
    const start = best[end.height - lookup] as ReplayBlock;
    const times = best.slice(start.height, end.height + 1).map((b) => b.decoded.header.time);
    const span = Math.max(...times) - Math.min(...times);
    return span === 0 ? 0 : Number(end.chainwork - start.chainwork) / span;
  },
  searchrawtransactions: (p, ctx) => searchRawTransactions(p, ctx.network.hrp, searchable(ctx)),
  version: pearldVersion,
  generate: (p, ctx) => ctx.step(intParam(p, 0, 'generate', 'numblocks', 1)),
  devnet_step: (p, ctx) => ctx.step(intParam(p, 0, 'devnet_step', '( count )', 1)),
  help: (p) => pearldHelp(Object.keys(METHODS), p),
};

/** Dispatches one call to the replaying node; unknown methods raise -32601 "Method not found". */
export function dispatchReplay(ctx: ReplayContext, method: string, params: unknown = []): unknown {
  const fn = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (!fn) throw new RpcError(-32601, 'Method not found');
  if (!Array.isArray(params)) {
    if (params === null || params === undefined) return fn([], ctx);
    throw new RpcError(-32600, 'Params must be an array');
  }
  return fn(params, ctx);
}
