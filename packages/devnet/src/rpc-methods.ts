import {
  decodePearlBlock,
  decodeTx,
  renderPearlBlock,
  renderPearlHeader,
  renderPearlTx,
  sha256d,
} from '@explorer/chain';
import { blockBytes } from './chain/certificate.js';
import { PEARL_DEVNET_HRP } from './chain/dialect.js';
import type { StoredBlock } from './chain/state.js';
import type { DevnetNode } from './node.js';
import { chainTips } from './pearld/chain-tips.js';
import { pearldHelp } from './pearld/help.js';
import { type SearchableTx, searchRawTransactions } from './pearld/search.js';
import { bip9Softforks } from './pearld/softforks.js';
import { pearldVersion } from './pearld/version.js';
import {
  coins,
  confirmations,
  type RenderOptions,
  renderBlock,
  renderHeader,
  renderTx,
} from './render-core.js';
import { RpcError } from './rpc-error.js';
import { boolParam, hashParam, intParam, verbosityParam } from './rpc-params.js';
import type { ReorgResult } from './scenarios/reorg.js';
import type { ChainTruthData } from './truth.js';

/** What the RPC methods need from the devnet. */
export interface RpcContext {
  node: DevnetNode;
  mine(n: number): string[];
  addTxs(n: number, feeRate?: number): { txid: string; fee: number; vsize: number }[];
  reorg(depth: number, extra?: number): ReorgResult;
  truth(): ChainTruthData;
}

type Method = (params: unknown[], ctx: RpcContext) => unknown;

const TX_NOT_FOUND = 'No such mempool or blockchain transaction. Use gettransaction for wallet transactions.';
const MIN_FEE = 0.00001;
/** The chain name the devnet's Pearl dialect reports: it imitates a local pearld test node. */
export const PEARL_DEVNET_CHAIN = 'regtest';

function renderOpts(ctx: RpcContext): RenderOptions {
  const o = ctx.node.options;
  return { legacyAddresses: o.addressFormat === 'addresses', includeFee: o.includeFee };
}

const isPearl = (ctx: RpcContext) => ctx.node.dialect.name === 'pearl';

function blockByHash(ctx: RpcContext, hash: string): StoredBlock {
  const b = ctx.node.state.blocks.get(hash);
  if (!b) throw new RpcError(-5, 'Block not found');
  return b;
}

function tip(ctx: RpcContext): StoredBlock {
  return ctx.node.state.tip() as StoredBlock;
}

/** pearld answers verbose requests only for main-chain blocks. */
function pearlPlacement(ctx: RpcContext, b: StoredBlock) {
  const state = ctx.node.state;
  if (state.best[b.height] !== b)
    throw new RpcError(-32603, `Failed to obtain block height: block ${b.hash} is not in the main chain`);
  return {
    height: b.height,
    difficulty: ctx.node.maker.difficulty(b.bits),
    confirmations: confirmations(state, b),
    nextHash: state.best[b.height + 1]?.hash ?? null,
  };
}

function pearlBlock(ctx: RpcContext, b: StoredBlock) {
  return decodePearlBlock(blockBytes(ctx.node.state, b), b.hash);
}

function mempoolVerbose(ctx: RpcContext): Record<string, unknown> {
  const state = ctx.node.state;
  const index = state.mempoolIndex;
  const parents = new Map<string, Set<string>>();
  const children = new Map<string, Set<string>>();
  for (const e of state.mempool) {
    const ps = new Set<string>();
    for (const c of e.spent) if (index.has(c.txid)) ps.add(c.txid);
    parents.set(e.txid, ps);
    for (const p of ps) {
      let set = children.get(p);
      if (!set) {
        set = new Set();
        children.set(p, set);
      }
      set.add(e.txid);
    }
  }
  const out: Record<string, unknown> = {};
  if (isPearl(ctx)) {
    // pearld's GetRawMempoolVerboseResult: no ancestor or descendant figures, the fee in PRL; a Go map, so
    // marshalled in txid order.
    for (const e of [...state.mempool].sort((a, b) => (a.txid < b.txid ? -1 : 1)))
      out[e.txid] = {
        size: e.size,
        vsize: e.vsize,
        fee: coins(e.fee),
        time: e.time,
        height: e.height,
        depends: [...(parents.get(e.txid) ?? [])],
      };
    return out;
  }
  const closure = (start: string, edges: Map<string, Set<string>>): Set<string> => {
    const seen = new Set<string>([start]);
    const stack = [start];
    while (stack.length > 0) {
      for (const n of edges.get(stack.pop() as string) ?? []) {
        if (!seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    return seen;
  };
  for (const e of state.mempool) {
    const anc = closure(e.txid, parents);
    const desc = closure(e.txid, children);
    const sum = (set: Set<string>, f: 'vsize' | 'fee') => {
      let s = 0;
      for (const t of set) s += (index.get(t) as { vsize: number; fee: number })[f];
      return s;
    };
    out[e.txid] = {
      vsize: e.vsize,
      weight: e.weight,
      time: e.time,
      height: e.height,
      descendantcount: desc.size,
      descendantsize: sum(desc, 'vsize'),
      ancestorcount: anc.size,
      ancestorsize: sum(anc, 'vsize'),
      wtxid: e.wtxid,
      fees: {
        base: coins(e.fee),
        modified: coins(e.fee),
        ancestor: coins(sum(anc, 'fee')),
        descendant: coins(sum(desc, 'fee')),
      },
      depends: [...(parents.get(e.txid) ?? [])],
      spentby: [...(children.get(e.txid) ?? [])],
      'bip125-replaceable': false,
      unbroadcast: false,
    };
  }
  return out;
}

/** The methods of both dialects (and the devnet's control methods), by name. */
const COMMON: Record<string, Method> = {
  getblockcount: (_p, ctx) => ctx.node.state.height,
  getbestblockhash: (_p, ctx) => tip(ctx).hash,
  getdifficulty: (_p, ctx) => ctx.node.maker.difficulty(tip(ctx).bits),
  getblockhash: (p, ctx) => {
    const h = intParam(p, 0, 'getblockhash', 'height', undefined);
    const b = ctx.node.state.best[h];
    if (h < 0 || !b) throw new RpcError(-8, 'Block height out of range');
    return b.hash;
  },
  getrawmempool: (p, ctx) => {
    if (boolParam(p, 0, false)) return mempoolVerbose(ctx);
    return ctx.node.state.mempool.map((e) => e.txid);
  },
  getnetworkhashps: (p, ctx) => {
    const state = ctx.node.state;
    let lookup = intParam(p, 0, 'getnetworkhashps', '( nblocks height )', 120);
    const height = intParam(p, 1, 'getnetworkhashps', '( nblocks height )', -1);
    const pb = height >= 0 && height < state.height ? state.best[height] : state.tip();
    if (!pb || pb.height === 0) return 0;
    // Core counts back to the last retarget for nblocks ≤ 0; pearld (btcd) takes its default of 120.
    if (lookup <= 0) lookup = isPearl(ctx) ? 120 : (pb.height % ctx.node.options.retargetInterval) + 1;
    if (lookup > pb.height) lookup = pb.height;
    let minTime = pb.time;
    let maxTime = pb.time;
    const pb0 = state.best[pb.height - lookup] as StoredBlock;
    for (let h = pb.height - 1; h >= pb.height - lookup; h--) {
      const t = (state.best[h] as StoredBlock).time;
      minTime = Math.min(minTime, t);
      maxTime = Math.max(maxTime, t);
    }
    if (minTime === maxTime) return 0;
    return Number(pb.chainwork - pb0.chainwork) / (maxTime - minTime);
  },
  getrawtransaction: (p, ctx) => {
    const state = ctx.node.state;
    const txid = hashParam(p, 0, 'getrawtransaction', '"txid" ( verbose "blockhash" )', 'parameter 1');
    const verbose = boolParam(p, 1, false);
    let bytes: Buffer | undefined;
    let block: StoredBlock | undefined;
    let index = -1;
    if (!isPearl(ctx) && p[2] !== undefined && p[2] !== null) {
      const hash = hashParam(p, 2, 'getrawtransaction', '"txid" ( verbose "blockhash" )', 'parameter 3');
      block = state.blocks.get(hash);
      if (!block) throw new RpcError(-5, 'Block hash not found');
      index = block.txids.indexOf(txid);
      if (index < 0)
        throw new RpcError(
          -5,
          'No such transaction found in the provided block. Use gettransaction for wallet transactions.',
        );
    } else {
      const e = state.mempoolIndex.get(txid);
      if (e) bytes = e.bytes;
      else {
        const loc = state.locate(txid);
        if (!loc) throw new RpcError(-5, TX_NOT_FOUND);
        block = loc.block;
        index = loc.index;
      }
    }
    if (block) bytes = block.raw.subarray(block.offsets[index], block.offsets[index + 1]);
    const raw = bytes as Buffer;
    if (!verbose) return raw.toString('hex');
    if (isPearl(ctx)) {
      const placed = block
        ? { blockHash: block.hash, time: block.time, confirmations: Math.max(0, confirmations(state, block)) }
        : undefined;
      return renderPearlTx(decodeTx(raw), PEARL_DEVNET_HRP, placed);
    }
    const out = renderTx(raw, renderOpts(ctx));
    if (block) {
      out.blockhash = block.hash;
      out.confirmations = Math.max(0, confirmations(state, block));
      out.time = block.time;
      out.blocktime = block.time;
    }
    return out;
  },
  generate: (p, ctx) => {
    const n = intParam(p, 0, 'generate', 'nblocks', 1);
    if (n < 0 || n > 10_000) throw new RpcError(-8, 'nblocks must be between 0 and 10000');
    return ctx.mine(n);
  },
  devnet_addtxs: (p, ctx) => {
    const n = intParam(p, 0, 'devnet_addtxs', 'count ( feerate )', 1);
    if (n < 0 || n > 10_000) throw new RpcError(-8, 'count must be between 0 and 10000');
    const rate = p[1];
    if (
      rate !== undefined &&
      rate !== null &&
      !(typeof rate === 'number' && Number.isFinite(rate) && rate >= 0)
    )
      throw new RpcError(-8, 'feerate must be a number of base units per vbyte, at least 0');
    return ctx.addTxs(n, typeof rate === 'number' ? rate : undefined);
  },
  devnet_reorg: (p, ctx) => {
    const depth = intParam(p, 0, 'devnet_reorg', 'depth ( extra )', undefined);
    const extra = intParam(p, 1, 'devnet_reorg', 'depth ( extra )', 1);
    const r = ctx.reorg(depth, extra);
    return { forkHeight: r.forkHeight, removed: r.removed, added: r.added };
  },
  devnet_truth: (_p, ctx) => ctx.truth(),
  devnet_hash: (_p, ctx) => {
    // Fingerprint of the best chain's bytes, for determinism checks across processes.
    const state = ctx.node.state;
    const parts = state.best.map((b) => sha256d(blockBytes(state, b)));
    return sha256d(Buffer.concat(parts)).toString('hex');
  },
};

/** Bitcoin Core's shapes of the methods that differ. */
const CORE: Record<string, Method> = {
  getblockchaininfo: (_p, ctx) => {
    const t = tip(ctx);
    let sizeOnDisk = 0;
    for (const b of ctx.node.state.all) sizeOnDisk += b.size;
    return {
      chain: 'devnet',
      blocks: t.height,
      headers: t.height,
      bestblockhash: t.hash,
      difficulty: ctx.node.maker.difficulty(t.bits),
      time: t.time,
      mediantime: t.mediantime,
      verificationprogress: 1,
      initialblockdownload: false,
      chainwork: t.chainwork.toString(16).padStart(64, '0'),
      size_on_disk: sizeOnDisk,
      pruned: false,
      warnings: '',
    };
  },
  getblockheader: (p, ctx) => {
    const b = blockByHash(ctx, hashParam(p, 0, 'getblockheader', '"blockhash" ( verbose )', 'blockhash'));
    if (!boolParam(p, 1, true)) return b.raw.subarray(0, b.headerSize).toString('hex');
    return renderHeader(ctx.node.state, b);
  },
  getblock: (p, ctx) => {
    const b = blockByHash(ctx, hashParam(p, 0, 'getblock', '"blockhash" ( verbosity )', 'blockhash'));
    const verbosity = verbosityParam(p[1]);
    if (verbosity <= 0) return b.raw.toString('hex');
    return renderBlock(ctx.node.state, b, verbosity >= 2 ? 2 : 1, renderOpts(ctx));
  },
  getmempoolinfo: (_p, ctx) => {
    const m = ctx.node.state.mempool;
    let bytes = 0;
    let fee = 0;
    let usage = 0;
    for (const e of m) {
      bytes += e.vsize;
      fee += e.fee;
      usage += e.size * 2 + 400;
    }
    return {
      loaded: true,
      size: m.length,
      bytes,
      usage,
      total_fee: coins(fee),
      maxmempool: 300_000_000,
      mempoolminfee: MIN_FEE,
      minrelaytxfee: MIN_FEE,
      unbroadcastcount: 0,
    };
  },
};

/** pearld's shapes (btcd's result structs), and the calls it answers differently or not at all. */
const PEARLD: Record<string, Method> = {
  getblockchaininfo: (_p, ctx) => {
    const t = tip(ctx);
    return {
      chain: PEARL_DEVNET_CHAIN,
      blocks: t.height,
      headers: t.height,
      bestblockhash: t.hash,
      difficulty: ctx.node.maker.difficulty(t.bits),
      mediantime: t.mediantime,
      pruned: false,
      bip9_softforks: bip9Softforks(t.height),
    };
  },
  getbestblock: (_p, ctx) => ({ hash: tip(ctx).hash, height: tip(ctx).height }),
  getchaintips: (_p, ctx) => {
    const state = ctx.node.state;
    return chainTips(state.all, (hash) => {
      const b = state.blocks.get(hash);
      return b !== undefined && state.best[b.height] === b;
    });
  },
  searchrawtransactions: (p, ctx) => searchRawTransactions(p, PEARL_DEVNET_HRP, searchable(ctx)),
  help: (p, ctx) => pearldHelp(Object.keys(methodsOf(ctx.node)), p),
  getblockheader: (p, ctx) => {
    const b = blockByHash(ctx, hashParam(p, 0, 'getblockheader', '"blockhash" ( verbose )', 'blockhash'));
    if (!boolParam(p, 1, true)) return b.raw.subarray(0, b.headerSize).toString('hex');
    return renderPearlHeader(pearlBlock(ctx, b).header, pearlPlacement(ctx, b));
  },
  getblock: (p, ctx) => {
    const b = blockByHash(ctx, hashParam(p, 0, 'getblock', '"blockhash" ( verbosity )', 'blockhash'));
    const verbosity = verbosityParam(p[1]);
    if (verbosity <= 0) return blockBytes(ctx.node.state, b).toString('hex');
    const at = pearlPlacement(ctx, b);
    return renderPearlBlock(pearlBlock(ctx, b), PEARL_DEVNET_HRP, at, verbosity >= 2 ? 2 : 1);
  },
  getmempoolinfo: (_p, ctx) => {
    const m = ctx.node.state.mempool;
    let bytes = 0;
    for (const e of m) bytes += e.size;
    return { size: m.length, bytes, cap: 300_000_000 };
  },
  getmempoolentry: () => {
    throw new RpcError(-1, 'Command unimplemented');
  },
  version: pearldVersion,
};

/** The best chain's transactions in chain order, then the mempool's, for the address search. */
function* searchable(ctx: RpcContext): Generator<SearchableTx> {
  const state = ctx.node.state;
  for (const b of state.best) {
    const placed = { blockHash: b.hash, time: b.time, confirmations: confirmations(state, b) };
    for (let i = 0; i < b.txids.length; i++)
      yield { tx: decodeTx(b.raw.subarray(b.offsets[i], b.offsets[i + 1])), placed };
  }
  for (const e of state.mempool) yield { tx: decodeTx(e.bytes) };
}

const TABLES = { pearl: { ...COMMON, ...PEARLD }, bitcoin: { ...COMMON, ...CORE } };

/** The method table of a node's dialect. */
export function methodsOf(node: DevnetNode): Record<string, Method> {
  return TABLES[node.dialect.name];
}

/** Dispatches one call; unknown methods raise -32601 "Method not found" (as Core and pearld do). */
export function dispatch(ctx: RpcContext, method: string, params: unknown = []): unknown {
  const methods = methodsOf(ctx.node);
  const fn = Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (!fn) throw new RpcError(-32601, 'Method not found');
  if (!Array.isArray(params)) {
    if (params === null || params === undefined) return fn([], ctx);
    throw new RpcError(-32600, 'Params must be an array');
  }
  return fn(params, ctx);
}
