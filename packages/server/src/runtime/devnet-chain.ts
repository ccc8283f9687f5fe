import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@explorer/core';
import {
  type BlockRef,
  blockHashesAt,
  REORG_EVENT_BLOCKS,
  readIndexerState,
  rollbackTo,
  type Sql,
} from '@explorer/db';
import {
  createDevnet,
  createReplayDevnet,
  type Devnet,
  genesisTimeEndingAt,
  readReplayFile,
} from '@explorer/devnet';
import type { ServerConfig } from '../config/index.js';

/** Seconds between the devnet's historical blocks. */
const HISTORY_SPACING = 150;

/**
 * The demo's wallet, which its simulated users pay (10 receive and 5 change addresses, one per block): BIP86
 * account 0 of the BIP39 test mnemonic `abandon abandon … about` on a test network (`m/86'/1'/0'`, master
 * fingerprint 73c5da0a), so `explorer wallet <key>` has a wallet to show on the first start. Its private key
 * is public: it pays nothing real.
 */
export const DEMO_WALLET_KEY =
  'tpubDDfvzhdVV4unsoKt5aE6dcsNsfeWbTgmLZPi8LQDYU2xixrYemMfWJ3BaVneH3u7DBQePdTwhpybaKRU95pi6PMUtLPBJLVQRpzEnjfjZzX';

/** What the server asks of its devnet, generated or replaying. */
export type ServedDevnet = Pick<Devnet, 'height' | 'rpc'>;

/** A running built-in devnet. */
export interface DevnetChain {
  devnet: ServedDevnet;
  /** Its JSON-RPC URL (no credentials). */
  url: string;
  /** Pool and label files; none for a replay (its blocks are not the devnet's miners'). */
  poolsFile?: string;
  labelsFile?: string;
  close(): Promise<void>;
}

interface ChainFile {
  seed: string;
  blocks: number;
  txPerBlock: number;
  targetSpacing: number;
  /** The wallet the simulated users pay (absent in files of versions whose demo paid none). */
  hdWallet: string;
  genesisTime: number;
}

// The genesis time is kept in the data dir so a restart regenerates the same historical blocks and the
// existing index stays valid up to them; only blocks mined live in an earlier run have to be rolled back.
function genesisTime(dir: string, want: Omit<ChainFile, 'genesisTime'>, now: number): number {
  const file = join(dir, 'chain.json');
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<ChainFile>;
    if (
      saved.seed === want.seed &&
      saved.blocks === want.blocks &&
      saved.txPerBlock === want.txPerBlock &&
      saved.targetSpacing === want.targetSpacing &&
      saved.hdWallet === want.hdWallet &&
      typeof saved.genesisTime === 'number'
    )
      return saved.genesisTime;
  } catch {
    // No file or an unreadable one: start a new chain.
  }
  const fresh = genesisTimeEndingAt(now / 1000, want.blocks, want.targetSpacing);
  writeFileSync(file, `${JSON.stringify({ ...want, genesisTime: fresh }, null, 2)}\n`);
  return fresh;
}

/**
 * Starts the built-in simulated node: deterministic history ending about now, live blocks every
 * DEVNET_INTERVAL_MS, JSON-RPC on 127.0.0.1 at a free port, pool and label files in `<dataDir>/devnet`.
 * @example const chain = await startDevnetChain(config); chain.url
 */
export async function startDevnetChain(config: ServerConfig, now = Date.now()): Promise<DevnetChain> {
  if (config.devnetReplayFile) return startReplayChain(config.devnetReplayFile, config.devnetIntervalMs);
  const dir = join(config.dataDir, 'devnet');
  mkdirSync(dir, { recursive: true });
  const params = {
    seed: config.devnetSeed,
    blocks: config.devnetBlocks,
    txPerBlock: config.devnetTxPerBlock,
    targetSpacing: HISTORY_SPACING,
    hdWallet: DEMO_WALLET_KEY,
  };
  // The history crosses every certificate-version fork, so the demo shows v1–v3 (decoded) and v4 alike.
  const fork = (share: number) => Math.max(1, Math.round(params.blocks * share));
  const devnet = createDevnet({
    ...params,
    genesisTime: genesisTime(dir, params, now),
    certificateForks: { moe: fork(0.25), saltedSeed: fork(0.5), fp8: fork(0.8) },
  });
  const files = devnet.writeDefinitions(dir);
  const server = await devnet.listen({ port: 0, host: '127.0.0.1' });
  if (config.devnetIntervalMs > 0) devnet.startMining(config.devnetIntervalMs);
  return {
    devnet,
    url: server.url,
    ...files,
    async close() {
      devnet.stopMining();
      await server.close();
    },
  };
}

/**
 * Starts a devnet replaying the blocks of a file (`{"blocks": [hex…]}` or a bare array): from genesis, one more
 * every `intervalMs`, or all of them at once when it is 0.
 */
async function startReplayChain(file: string, intervalMs: number): Promise<DevnetChain> {
  const blocks = readReplayFile(file);
  const devnet = createReplayDevnet({ blocks, revealed: intervalMs > 0 ? 1 : blocks.length });
  const server = await devnet.listen({ port: 0, host: '127.0.0.1' });
  if (intervalMs > 0) devnet.startMining(intervalMs);
  return {
    devnet,
    url: server.url,
    async close() {
      devnet.stopMining();
      await server.close();
    },
  };
}

/**
 * Rolls the index back to where it agrees with the devnet. A restarted devnet regenerates its history but not
 * the blocks an earlier run mined live, so the index may hold blocks the new chain lacks — possibly more
 * than MAX_REORG_DEPTH, which would stop the indexer. The devnet is ours, so its chain is the truth.
 */
export async function reconcileWithDevnet(
  sql: Sql,
  devnet: ServedDevnet,
  log: Logger,
  opts: { retain?: number } = {},
): Promise<number> {
  const state = await readIndexerState(sql);
  if (state.tip_height < 0) return 0;
  const same = async (h: number) => {
    const indexed = (await blockHashesAt(sql, [h])).get(h);
    return indexed !== undefined && indexed === (await devnet.rpc('getblockhash', [h]));
  };
  // Chains that diverge never agree again, so the agreeing heights form a prefix: binary search its end.
  let lo = -1;
  let hi = Math.min(state.tip_height, devnet.height());
  if (await same(hi)) lo = hi;
  else {
    hi -= 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi + 1) / 2);
      if (await same(mid)) lo = mid;
      else hi = mid - 1;
    }
  }
  if (lo >= state.tip_height) return 0;
  // The devnet's branch above the fork point (none, unless its history grew): the reorg event names it.
  const top = Math.min(devnet.height(), lo + REORG_EVENT_BLOCKS);
  const added: BlockRef[] = [];
  for (let h = lo + 1; h <= top; h++)
    added.push({ height: h, hash: (await devnet.rpc('getblockhash', [h])) as string });
  const r = await sql.transaction((tx) => rollbackTo(tx, lo, { added, retain: opts.retain }));
  // Expected on every restart of the demo (its live blocks are not regenerated): news, not a warning.
  log.info(
    { fork: lo, removed: r.removedBlocks },
    'devnet restarted: rolled the index back to the shared history',
  );
  return r.removedBlocks;
}
