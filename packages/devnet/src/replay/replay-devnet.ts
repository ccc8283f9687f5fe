import { PEARL_NETWORKS, type PearlNetworkName, pearlNetworksByGenesis } from '@explorer/chain';
import { type ListenOptions, type RpcServerHandle, startRpcServer } from '../rpc-server.js';
import { ReplayChain } from './replay-chain.js';
import { dispatchReplay, type ReplayContext } from './replay-methods.js';

/** Options of createReplayDevnet. */
export interface ReplayOptions {
  /** The blocks as `getblock <hash> 0` gives them (hex), parents before children; the first is genesis. */
  blocks: readonly string[];
  /** How many of them the node knows at the start (default all; at least 1, genesis). */
  revealed?: number;
  /** The network whose parameters (address prefix, pow limit) and chain name it answers with; by default the
   * first network with the genesis given (regtest for regtest's and simnet's). */
  network?: PearlNetworkName;
}

/** A node replaying given Pearl blocks in pearld's dialect; see docs/devnet.md. */
export interface ReplayDevnet {
  /** The best chain's height and tip among the blocks revealed so far. */
  height(): number;
  tipHash(): string;
  /** Blocks given and not yet revealed. */
  remaining(): number;
  /**
   * Reveals the next n given blocks (fewer when fewer are left), as if the node had received them, and
   * returns their hashes. A block that gives another branch more work reorganises the best chain.
   * @example devnet.step(2)
   */
  step(n?: number): string[];
  /** In-process JSON-RPC dispatch; throws RpcError. */
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  /** Serves JSON-RPC over HTTP (host 127.0.0.1 and a random port by default). */
  listen(opts?: ListenOptions): Promise<RpcServerHandle>;
  /** Reveals one block every intervalMs until none is left. */
  startMining(intervalMs: number): void;
  stopMining(): void;
}

/**
 * A devnet that serves given real blocks — a real pearld's, certificates and all — instead of generating
 * its own, revealing them in the given order so that an indexer sees the branches, and reorganisations, the
 * node saw.
 * @example const devnet = createReplayDevnet({ blocks: file.blocks, revealed: 21 }); devnet.step(2);
 */
export function createReplayDevnet(opts: ReplayOptions): ReplayDevnet {
  const chain = new ReplayChain(opts.blocks);
  const revealed = opts.revealed ?? opts.blocks.length;
  if (!Number.isInteger(revealed) || revealed < 1 || revealed > opts.blocks.length)
    throw new RangeError(`revealed must be an integer from 1 to ${opts.blocks.length}`);
  const genesis = chain.blocks[0]!.hash;
  const network = opts.network ? PEARL_NETWORKS[opts.network] : pearlNetworksByGenesis(genesis)[0];
  if (!network)
    throw new RangeError(`no Pearl network has the genesis ${genesis}: name one with \`network\``);
  chain.reveal(revealed);
  let timer: NodeJS.Timeout | undefined;
  const step = (n = 1) => chain.reveal(n).map((b) => b.hash);
  const ctx: ReplayContext = { chain, network, chainName: network.name, step };
  const devnet: ReplayDevnet = {
    height: () => chain.tip.height,
    tipHash: () => chain.tip.hash,
    remaining: () => chain.remaining,
    step,
    rpc: async (method, params = []) => dispatchReplay(ctx, method, params),
    listen: (o) =>
      startRpcServer(async (method, params) => dispatchReplay(ctx, method, params), {
        ...o,
        dialect: 'pearl',
      }),
    startMining(intervalMs) {
      devnet.stopMining();
      timer = setInterval(() => {
        if (chain.remaining === 0) devnet.stopMining();
        else step(1);
      }, intervalMs);
      timer.unref?.();
    },
    stopMining() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
  return devnet;
}
