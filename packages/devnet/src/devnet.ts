import type { KnownLabel, PoolDefinition } from './chain/pools.js';
import { writeDefinitionFiles } from './definitions.js';
import { DevnetNode } from './node.js';
import { type DevnetOptions, resolveOptions } from './options.js';
import { dispatch, type RpcContext } from './rpc-methods.js';
import { type ListenOptions, type RpcServerHandle, startRpcServer } from './rpc-server.js';
import { type ReorgOptions, type ReorgResult, reorg } from './scenarios/reorg.js';
import { type ChainTruth, type ChainTruthData, chainTruth } from './truth.js';

/** A transaction the devnet put in its mempool: fee in base units, size in vbytes. */
export interface MempoolTx {
  txid: string;
  fee: number;
  vsize: number;
}

/** A running simulated chain; see docs/devnet.md. */
export interface Devnet {
  readonly options: Required<DevnetOptions>;
  height(): number;
  tipHash(): string;
  /** Appends n blocks (mempool txs get mined) and returns their hashes. */
  mine(n?: number, opts?: { time?: number }): string[];
  /**
   * Puts up to n new transactions in the mempool (fewer when the wallets run out of coins), each paying
   * `feeRate` base units per vbyte (⌈feeRate × vsize⌉, more when change too small to keep goes to the fee) or a
   * random rate; returns them as the mempool holds them.
   * @example const txs = devnet.addTxs(3, { feeRate: 12.5 })
   */
  addTxs(n: number, opts?: { feeRate?: number }): MempoolTx[];
  /**
   * Mines one block holding exactly these mempool transactions (and the unconfirmed ones they spend); returns
   * its hash. The mempool keeps the rest.
   * @example devnet.mineTxs([txid])
   */
  mineTxs(txids: readonly string[], opts?: { time?: number }): string;
  /** Replaces the top `depth` blocks with a longer competing branch. */
  reorg(depth: number, opts?: ReorgOptions): ReorgResult;
  /** In-process JSON-RPC dispatch; throws RpcError. */
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  /** Serves JSON-RPC over HTTP (host 127.0.0.1 and a random port by default). */
  listen(opts?: ListenOptions): Promise<RpcServerHandle>;
  /** Mines a block every intervalMs (stamped with the wall clock) and trickles txs into the mempool. */
  startMining(intervalMs: number): void;
  stopMining(): void;
  definitions(): { pools: PoolDefinition[]; labels: KnownLabel[] };
  writeDefinitions(dir: string): { poolsFile: string; labelsFile: string };
  /** What the devnet knows about its best chain, for tests to compare the explorer against. */
  truth(): ChainTruth;
}

/** Builds a devnet: genesis plus `blocks` blocks, deterministically from the seed and options. */
export function createDevnet(opts: DevnetOptions = {}): Devnet {
  const options = resolveOptions(opts);
  const node = new DevnetNode(options);
  node.build();
  const state = node.state;
  const timers: NodeJS.Timeout[] = [];

  const mine = (n = 1, o: { time?: number } = {}): string[] => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(node.mineBlock(o.time === undefined ? undefined : o.time + i).hash);
    return out;
  };
  const truthData = (): ChainTruthData => {
    const { balances: _b, ...rest } = chainTruth(state, node.busyAddresses, node.dialect);
    return rest;
  };
  const addTxs = (n: number, o: { feeRate?: number } = {}): MempoolTx[] => {
    if (o.feeRate !== undefined && !(Number.isFinite(o.feeRate) && o.feeRate >= 0))
      throw new RangeError('feeRate must be a number >= 0');
    return node.addTxs(n, o.feeRate).map((e) => ({ txid: e.txid, fee: e.fee, vsize: e.vsize }));
  };
  const ctx: RpcContext = {
    node,
    mine: (n) => mine(n),
    addTxs: (n, feeRate) => addTxs(n, { feeRate }),
    reorg: (depth, extra) => reorg(node, depth, { extra }),
    truth: truthData,
  };

  const devnet: Devnet = {
    options,
    height: () => state.height,
    tipHash: () => (state.tip() as { hash: string }).hash,
    mine,
    addTxs,
    mineTxs(txids, o = {}) {
      const chosen = new Set(
        txids.map((txid) => {
          const e = state.mempoolIndex.get(txid);
          if (!e) throw new RangeError(`${txid} is not in the mempool`);
          return e;
        }),
      );
      return node.mineSelected(chosen, o.time).hash;
    },
    reorg: (depth, o) => reorg(node, depth, o),
    rpc: async (method, params = []) => dispatch(ctx, method, params),
    listen: (o) =>
      startRpcServer(async (method, params) => dispatch(ctx, method, params), {
        ...o,
        dialect: options.dialect,
      }),
    startMining(intervalMs) {
      devnet.stopMining();
      const nowSec = () => Math.floor(Date.now() / 1000);
      node.liveClock = nowSec;
      timers.push(
        setInterval(() => {
          const tip = state.tip();
          mine(1, { time: Math.max((tip?.time ?? 0) + 1, nowSec()) });
        }, intervalMs),
      );
      const trickle = Math.max(20, Math.floor(intervalMs / Math.max(1, options.mempoolSize)));
      timers.push(
        setInterval(() => {
          if (state.mempool.length < options.mempoolSize * 2) node.addTxs(1);
        }, trickle),
      );
      for (const t of timers) t.unref?.();
    },
    stopMining() {
      for (const t of timers.splice(0)) clearInterval(t);
    },
    definitions: () => ({ pools: structuredClone(node.pools), labels: structuredClone(node.labels) }),
    writeDefinitions: (dir) => writeDefinitionFiles(dir, { pools: node.pools, labels: node.labels }),
    truth: () => chainTruth(state, node.busyAddresses, node.dialect),
  };
  return devnet;
}
