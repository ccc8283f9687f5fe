import type { ChainEvent, EventDraft, Logger, SyncProgress } from '@explorer/core';
import { silentLogger } from '@explorer/core';
import {
  type AdvisoryLock,
  analyzeIndex,
  appendEvents,
  blockEventDrafts,
  blockHashesAt,
  DatabaseError,
  lastReorgAddedHeight,
  readIndexerState,
  readStoredDefinitions,
  reattributePools,
  replaceDefinitions,
  type Sql,
  statisticsStale,
  writeChainInfo,
  writeIndexerStatus,
  writeSyncProgress,
} from '@explorer/db';
import { backoffMs } from './backoff.js';
import { type ChainSelection, detectChain } from './chains/detect.js';
import { type ChainInfo, type ChainProfile, ChainProfileError } from './chains/profile.js';
import { keptLine, resolveDefinitions } from './definitions.js';
import { type IngestCacheOptions, IngestState, type PreparedBatch, writePrepared } from './ingest/apply.js';
import type { ParsedBlock } from './ingest/parse.js';
import { type NodeClient, NodeUnavailableError } from './node-client.js';
import type { Definitions, DefinitionsInput } from './pools.js';
import { sleep } from './sleep.js';
import { type BlockReader, createBlockReader } from './sync/block-reader.js';
import { eventRanges } from './sync/event-ranges.js';
import { runPipeline } from './sync/pipeline.js';
import { createProgress, oneDecimal, progressLine } from './sync/progress.js';
import { maxReorgDepth, ReorgTooDeepError, rollBackToFork } from './sync/reorg.js';

export { formatSeconds, progressLine } from './sync/progress.js';
export { ReorgTooDeepError } from './sync/reorg.js';

/** Every state the indexer can be in. */
export const INDEXER_STATES = [
  'starting',
  'syncing',
  'synced',
  'node-unreachable',
  'database-unreachable',
  'disk-full',
  'reorg-too-deep',
  'wrong-chain',
  'error',
  'stopped',
] as const;

/** What the indexer is doing, as /v1/status reports it. */
export type IndexerState = (typeof INDEXER_STATES)[number];

/** A snapshot of the indexer. */
export interface IndexerStatus {
  state: IndexerState;
  error: string | null;
  tipHeight: number;
  tipHash: string | null;
  nodeHeight: number | null;
  lag: number | null;
  reorgs: number;
  /** The chain being indexed, once the node was asked. */
  chain: ChainInfo | null;
  /** How a sync is going, while the indexer is more than a batch behind the node; null otherwise. */
  progress: SyncProgress | null;
}

/** Options of the indexer. */
export interface IndexerOptions {
  sql: Sql;
  node: NodeClient;
  /**
   * Pool and label definitions. A kind given replaces the one stored with the index (blocks are attributed
   * again when attribution changes); a kind left out keeps the stored one, and none stored means none.
   */
  definitions?: DefinitionsInput;
  /** What the operator said of the chain (CHAIN, CHAIN_NETWORK); the rest is detected from the node. */
  chain?: ChainSelection;
  /** A chain profile to use as it is, instead of detecting one. */
  profile?: ChainProfile;
  log?: Logger;
  /** How often to ask the node for a new tip when synced (default 1,000 ms). */
  pollIntervalMs?: number;
  /**
   * Deepest reorg rolled back automatically; deeper ones stop the indexer, keeping the old data. Default 100,
   * and no limit on regtest and simnet, whose nodes start their chain anew by design (pearld deletes its
   * regtest database at every start).
   */
  maxReorgDepth?: number | null;
  /** Transactions to aim for in one database transaction during initial sync (default 2,500). */
  batchTxTarget?: number;
  /** Most blocks in one database transaction (default 500). */
  maxBatchBlocks?: number;
  /** Blocks per JSON-RPC batch request (default 25). */
  rpcBatchBlocks?: number;
  /** Sizes of the writer's in-memory caches of unspent outputs and balances. */
  cache?: IngestCacheOptions;
  /** How often a sync logs its progress (default 5,000 ms). */
  progressIntervalMs?: number;
  /**
   * The planner's statistics (`ANALYZE`) are gathered again once a pass that wrote something reaches the node's
   * tip and the chain has grown by this fraction since they were last gathered, or they never were (default 0.1;
   * null never): after any initial sync, whatever its size, then as the chain grows, with or without the
   * server's autovacuum.
   */
  analyzeGrowth?: number | null;
  /**
   * Threads that fetch and decode blocks beside the one that builds and writes rows (default: one per core
   * but one, 1–4; 0 reads in this thread). A node client made without `createNodeClient`'s own transport, or a
   * profile given as an object, is read in this thread.
   */
  readerThreads?: number;
  /** The live events the indexer records (block, address, reorg) and who hears of them once committed. */
  events?: IndexerEventOptions;
  /** Told what the indexer committed (metrics). */
  observe?: IndexerObserver;
}

/** Told what the indexer committed, as it commits it. */
export interface IndexerObserver {
  /** A batch of `blocks` blocks holding `txs` transactions was written. */
  committed?(blocks: number, txs: number): void;
  /** A reorganisation was rolled back: `depth` blocks were removed. */
  reorg?(depth: number): void;
  /** A sync's progress was reported (what its `syncing: …` log line says), every `progressIntervalMs`. */
  progress?(report: SyncProgress): void;
  /** The index reached the node's tip, at `height`. */
  synced?(height: number): void;
}

/** How the indexer records live events. */
export interface IndexerEventOptions {
  /**
   * Blocks within this many of the node's tip when written get `block` and `address` events (default 100):
   * the blocks of an initial sync do not flood the log, those written while following the tip all do.
   */
  liveWindow?: number;
  /** Events the log keeps (default 10,000). */
  retain?: number;
  /** Called with the events of each committed transaction, in id order. */
  onEvents?: (events: ChainEvent[]) => void;
}

/** The database holds another chain than the node's: nothing was written, and retrying cannot help. */
export class WrongChainError extends ChainProfileError {}

/** Another indexer holds the writer lock. */
export class IndexerLockedError extends Error {
  override readonly name = 'IndexerLockedError';
}

/** The connection holding the writer lock was lost, and the lock with it: nothing more is written until retaken. */
class WriterLockLostError extends Error {
  override readonly name = 'WriterLockLostError';
}

const WRITER_LOCK = 7_301_002;

/** The indexer: call `start()` to follow the node, or `syncOnce()` to catch up once. */
export interface Indexer {
  /** Takes the writer lock, syncs definitions, then follows the node until `stop()`. */
  start(): Promise<void>;
  /** Stops following after the current batch; resolves once stopped and the lock is released. */
  stop(): Promise<void>;
  /** Catches up with the node's current tip once (taking the lock if not held). */
  syncOnce(): Promise<{ applied: number; rolledBack: number }>;
  /**
   * Asks the node which chain it serves and checks the database against it, writing nothing before it knows
   * they agree; throws WrongChainError (a ChainProfileError) when they do not. Done once; `start()` does it
   * first too.
   */
  verifyChain(): Promise<ChainInfo>;
  /**
   * Resolves once the chain was verified (by `verifyChain()` or the running indexer's first pass); rejects with
   * the error that stopped the indexer for good when it was the wrong chain. Writers beside the indexer start
   * after it.
   */
  chainVerified(): Promise<ChainInfo>;
  /** Current status. */
  status(): IndexerStatus;
}

/** The indexer's defaults: what {@link createIndexer} uses for an option not given, and the server's settings' defaults. */
export const INDEXER_DEFAULTS = {
  pollIntervalMs: 1_000,
  batchTxTarget: 2_500,
  maxBatchBlocks: 500,
  rpcBatchBlocks: 25,
  progressIntervalMs: 5_000,
} as const;

/**
 * Creates an indexer that writes a node's chain into the database.
 * @example const indexer = createIndexer({ sql, node, definitions }); await indexer.start();
 */
export function createIndexer(opts: IndexerOptions): Indexer {
  const { sql, node } = opts;
  const log = opts.log ?? silentLogger;
  const pollMs = opts.pollIntervalMs ?? INDEXER_DEFAULTS.pollIntervalMs;
  const txTarget = opts.batchTxTarget ?? INDEXER_DEFAULTS.batchTxTarget;
  const maxBlocks = opts.maxBatchBlocks ?? INDEXER_DEFAULTS.maxBatchBlocks;
  const rpcBatch = opts.rpcBatchBlocks ?? INDEXER_DEFAULTS.rpcBatchBlocks;
  const progressMs = opts.progressIntervalMs ?? INDEXER_DEFAULTS.progressIntervalMs;
  const analyzeGrowth = opts.analyzeGrowth === undefined ? 0.1 : opts.analyzeGrowth;
  /** Transactions written since the index last reached the node's tip (across failed passes too). */
  let txsSinceSynced = 0;
  const liveWindow = opts.events?.liveWindow ?? 100;
  const retain = opts.events?.retain;
  const announce = (events: ChainEvent[]) => {
    if (events.length === 0 || !opts.events?.onEvents) return;
    try {
      opts.events.onEvents(events);
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'an event listener failed');
    }
  };

  const status: IndexerStatus = {
    state: 'starting',
    error: null,
    tipHeight: -1,
    tipHash: null,
    nodeHeight: null,
    lag: null,
    reorgs: 0,
    chain: null,
    progress: null,
  };
  let profile: ChainProfile | null = opts.profile ?? null;
  let chainChecked = false;
  let verified!: { resolve: (info: ChainInfo) => void; reject: (err: Error) => void };
  const chainVerified = new Promise<ChainInfo>((resolve, reject) => {
    verified = { resolve, reject };
  });
  // Nobody need be waiting for it.
  chainVerified.catch(() => {});
  let lock: AdvisoryLock | null = null;
  /** The definitions blocks are attributed with, once resolved against those stored. */
  let definitions: Definitions | null = null;
  let loop: Promise<void> | null = null;
  let abort = new AbortController();
  let avgTxPerBlock = 10;
  /** Blocks up to this height get `block` events whatever the live window says: a reorg event named them. */
  let announceThrough: number | null = null;

  const setState = async (state: IndexerState, error: string | null = null) => {
    const changed = state !== status.state || error !== status.error;
    status.state = state;
    status.error = error;
    status.lag = status.nodeHeight === null ? null : Math.max(0, status.nodeHeight - status.tipHeight);
    if (changed)
      log.info({ state, error, tip: status.tipHeight, node: status.nodeHeight }, `indexer ${state}`);
    // Only the writer's state is the indexer's: one that lost (or never got) the lock keeps its own in memory.
    if (!lock?.held()) return;
    try {
      await writeIndexerStatus(sql, { status: state, error, nodeHeight: status.nodeHeight });
    } catch {
      // The database being down is itself reported through the state; nothing more to do here.
    }
  };

  /** Keeps a sync's progress in memory and, for /v1/status in every process, with the index. */
  const setProgress = async (progress: SyncProgress | null) => {
    const had = status.progress !== null;
    status.progress = progress;
    if ((progress === null && !had) || !lock?.held()) return;
    // A lost progress report is no reason to stop a sync: the next one comes an interval later.
    await writeSyncProgress(sql, progress).catch(() => {});
  };

  async function ensureLock(): Promise<void> {
    if (lock?.held()) return;
    if (lock) {
      // Its connection ended (the database restarted, or the session was terminated): so did the lock.
      log.warn({}, 'the writer lock was lost with its database connection; taking it again');
      await lock.release().catch(() => {});
      lock = null;
    }
    lock = await sql.tryAdvisoryLock(WRITER_LOCK);
    if (!lock) throw new IndexerLockedError('another indexer holds the writer lock on this database');
  }

  /**
   * Runs a write transaction only while the writer lock is held, and commits it only if the database still
   * says so at the end: another indexer may have taken the lock the moment its connection was lost.
   */
  function whileLocked<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const lost = () =>
      new WriterLockLostError('the writer lock was lost with its database connection; retrying');
    if (!lock?.held()) return Promise.reject(lost());
    const held = lock;
    return sql.transaction(async (tx) => {
      const result = await fn(tx);
      if (!(await held.confirm(tx))) throw lost();
      return result;
    });
  }

  async function syncDefinitions(): Promise<Definitions> {
    if (definitions) return definitions;
    const stored = await readStoredDefinitions(sql);
    const r = resolveDefinitions(opts.definitions ?? {}, stored);
    const d = r.definitions;
    if (r.changed) {
      const reattributed = await whileLocked(async (tx) => {
        await replaceDefinitions(tx, d.pools, d.labels, d.hash, r.sources);
        return r.reattribute ? reattributePools(tx, (hex, payouts) => d.attribute(hex, payouts)) : 0;
      });
      log.info({ pools: d.pools.length, labels: d.labels.length, reattributed }, 'pool definitions loaded');
    }
    const kept = keptLine(r);
    if (kept) {
      const from = r.kept.map((k) => ({ kind: k.kind, count: k.count, source: k.source?.source ?? null }));
      log.info({ kept: from }, kept);
    }
    definitions = d;
    return d;
  }

  /**
   * The chain profile, detected once; and the database's chain checked against it: a database holds one chain,
   * so a node with another genesis block is refused rather than mixed in.
   */
  async function ensureChain(): Promise<ChainProfile> {
    profile ??= await detectChain(node, opts.chain ?? {}, log);
    status.chain = profile.info;
    if (chainChecked) return profile;
    const state = await readIndexerState(sql);
    const held = state.chain as Partial<ChainInfo> | null;
    const [genesis] = await blockHashesAt(sql, [0]).then((m) => [...m.values()]);
    const heldGenesis = held?.genesisHash ?? genesis ?? null;
    if (state.tip_height >= 0 && heldGenesis !== null && heldGenesis !== profile.info.genesisHash) {
      throw new WrongChainError(
        `this database holds the chain whose genesis block is ${heldGenesis}${held?.profile ? ` (${held.profile}${held.network ? ` ${held.network}` : ''})` : ''}, but the node serves ${profile.info.genesisHash} (${profile.info.profile}${profile.info.network ? ` ${profile.info.network}` : ''}); index it into another database (another DATABASE_URL, or another --data-dir), or point NODE_RPC_URL at a node of the chain it holds. Nothing was written to it`,
      );
    }
    if (JSON.stringify(held) !== JSON.stringify(profile.info)) {
      await writeChainInfo(sql, profile.info as unknown as Record<string, unknown>);
      log.info({ ...profile.info, unsupportedCalls: undefined }, 'chain profile');
    }
    chainChecked = true;
    verified.resolve(profile.info);
    return profile;
  }

  /** The block reader, made once the chain is known; its threads end with stop(). */
  let reader: BlockReader | null = null;
  const blockReader = (p: ChainProfile): BlockReader => {
    reader ??= createBlockReader({
      node,
      profile: p,
      rpcBatch,
      // A profile given as an object cannot be made again in another thread.
      threads: opts.profile ? 0 : opts.readerThreads,
      log,
    });
    return reader;
  };

  /**
   * Rolls a reorganisation back when the node's block at the indexed tip is another one; how many blocks it
   * removed, or null when the node agrees.
   */
  async function reorgIfDiverged(nodeHeight: number): Promise<number | null> {
    if (status.tipHeight < 0) return null;
    const nodeHash =
      status.tipHeight <= nodeHeight ? await node.call<string>('getblockhash', [status.tipHeight]) : null;
    if (nodeHash === status.tipHash) return null;
    const r = await rollBackToFork({
      sql,
      node,
      tipHeight: status.tipHeight,
      nodeHeight,
      maxDepth: maxReorgDepth(opts.maxReorgDepth, profile?.info.network ?? null),
      write: whileLocked,
      retain,
    });
    status.nodeHeight = r.branchTop;
    announce(r.events);
    // Every block the reorg event names follows as a `block` event, however far below the tip it is.
    announceThrough = Math.max(announceThrough ?? -1, r.fork + r.added.length);
    opts.observe?.reorg?.(r.removedBlocks);
    status.tipHeight = r.newTip.height;
    status.tipHash = r.newTip.hash;
    status.reorgs += 1;
    log.warn({ fork: r.fork, removed: r.removedBlocks }, 'reorg: rolled back to the fork point');
    return r.removedBlocks;
  }

  /** Writes the blocks from the tip up to `nodeHeight`, batch after batch; false when one no longer extended it. */
  async function extend(p: ChainProfile, defs: Definitions, nodeHeight: number): Promise<boolean> {
    const ingest = new IngestState(opts.cache);
    const progress = createProgress(status.tipHeight, nodeHeight, progressMs);
    const write = (prepared: PreparedBatch) =>
      whileLocked(async (tx) => {
        await writePrepared(tx, prepared);
        // Blocks near the tip, and those a reorg event named, get events; an initial sync's do not.
        const drafts: EventDraft[] = [];
        const ranges = eventRanges({
          first: prepared.parent.height + 1,
          last: prepared.last.height,
          nodeHeight,
          liveWindow,
          announceThrough,
        });
        for (const [from, to] of ranges) drafts.push(...(await blockEventDrafts(tx, from, to)));
        return appendEvents(tx, drafts, { retain });
      }).then(async (events) => {
        announce(events);
        ingest.committed(prepared.seq);
        const blocks = prepared.last.height - prepared.parent.height;
        applied += blocks;
        txsSinceSynced += prepared.txCount;
        batchesSinceSynced += 1;
        opts.observe?.committed?.(blocks, prepared.txCount);
        status.tipHeight = prepared.last.height;
        status.tipHash = prepared.last.hash;
        status.lag = Math.max(0, nodeHeight - prepared.last.height);
        const report = progress.committed(prepared.last.height, prepared.txCount);
        if (report) {
          // Recorded before it is logged: once the line is out, /v1/status in any process shows it (or a later one).
          await setProgress(report);
          log.info({ ...report }, progressLine(report));
          opts.observe?.progress?.(report);
        }
      });
    const { mismatch } = await runPipeline<ParsedBlock, PreparedBatch>(
      {
        read: (from, count, prevHash) => blockReader(p).read(from, count, prevHash),
        prepare: async (blocks) => {
          const prepared = await ingest.prepare(sql, blocks, defs);
          avgTxPerBlock = prepared.txCount / blocks.length;
          return prepared;
        },
        write,
        batchSize: () => Math.max(1, Math.min(maxBlocks, Math.round(txTarget / Math.max(1, avgTxPerBlock)))),
        aborted: () => abort.signal.aborted,
      },
      status.tipHeight + 1,
      nodeHeight,
      status.tipHash,
    );
    await setProgress(null);
    return !mismatch;
  }

  let applied = 0;
  /** Batches written since the index last reached the node's tip: more than one is a sync, not a block followed. */
  let batchesSinceSynced = 0;
  /** The statistics being gathered while the indexer follows the tip, if they are. */
  let analyzing: Promise<void> | null = null;

  /** Gathers the planner's statistics again, saying so, with how long it took. */
  async function analyze(txs: number): Promise<void> {
    const began = performance.now();
    await analyzeIndex(sql);
    const seconds = oneDecimal((performance.now() - began) / 1000);
    log.info({ txs, seconds }, `planner statistics gathered after ${txs} transactions`);
  }

  /**
   * Keeps the planner's statistics fresh as the chain grows, whether or not the server's autovacuum runs: once a
   * pass that wrote something reaches the tip and they lag the chain (never gathered, or by `analyzeGrowth`).
   * After a sync they are gathered before the indexer says it is synced; while it follows the tip, beside it.
   */
  async function refreshStatistics(txs: number, sync: boolean): Promise<void> {
    if (analyzeGrowth === null || txs === 0 || analyzing) return;
    if (!(await statisticsStale(sql, analyzeGrowth))) return;
    if (sync) return analyze(txs);
    analyzing = analyze(txs)
      .catch((err: Error) => log.warn({ err: err.message }, 'gathering planner statistics failed'))
      .finally(() => {
        analyzing = null;
      });
  }

  async function syncOnce(): Promise<{ applied: number; rolledBack: number }> {
    await ensureLock();
    const p = await ensureChain();
    const defs = await syncDefinitions();
    announceThrough ??= await lastReorgAddedHeight(sql);
    applied = 0;
    let rolledBack = 0;
    for (;;) {
      const nodeHeight = await node.call<number>('getblockcount');
      status.nodeHeight = nodeHeight;
      const state = await readIndexerState(sql);
      status.tipHeight = state.tip_height;
      status.tipHash = state.tip_hash;
      status.reorgs = state.reorgs;
      const removed = await reorgIfDiverged(nodeHeight);
      if (removed !== null) {
        rolledBack += removed;
        continue;
      }
      if (status.tipHeight >= nodeHeight) break;
      await setState('syncing');
      const extended = await extend(p, defs, nodeHeight);
      if (abort.signal.aborted) break;
      if (extended && status.tipHeight >= nodeHeight) break;
    }
    // Stopped halfway is not synced: the state says so once stop() completes.
    if (abort.signal.aborted) return { applied, rolledBack };
    await refreshStatistics(txsSinceSynced, batchesSinceSynced > 1);
    txsSinceSynced = 0;
    batchesSinceSynced = 0;
    await setState('synced');
    opts.observe?.synced?.(status.tipHeight);
    return { applied, rolledBack };
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!abort.signal.aborted) {
      try {
        if (!chainChecked) {
          // Nothing is written, not even the state, before the database is known to hold the node's chain.
          await ensureChain();
          await writeIndexerStatus(sql, { status: 'starting', started: true }).catch(() => {});
        }
        await syncOnce();
        failures = 0;
        await sleep(pollMs, abort.signal);
      } catch (err) {
        if (abort.signal.aborted) break;
        failures++;
        const message = (err as Error).message ?? String(err);
        if (err instanceof NodeUnavailableError) await setState('node-unreachable', message);
        else if (err instanceof ReorgTooDeepError) await setState('reorg-too-deep', message);
        else if (err instanceof IndexerLockedError) await setState('error', message);
        else if (err instanceof ChainProfileError) {
          // Not recorded in the database (it may be another chain's) and not retried: the operator must act.
          status.state = 'wrong-chain';
          status.error = message;
          log.error({ err: message }, `wrong chain: ${message}`);
          verified.reject(err);
          return;
        } else if (err instanceof DatabaseError && err.diskFull) await setState('disk-full', message);
        else if ((err instanceof DatabaseError && err.unavailable) || err instanceof WriterLockLostError)
          await setState('database-unreachable', `database: ${message}`);
        else await setState('error', err instanceof DatabaseError ? `database: ${message}` : message);
        // A full disk is the operator's to fix: its own sentence is the line, repeated as the retries back off.
        if (err instanceof DatabaseError && err.diskFull) log.error({ err: message, failures }, message);
        else log.error({ err: message, failures }, 'indexer pass failed; retrying');
        await sleep(
          backoffMs(failures, { firstMs: 2 * pollMs, maxMs: Math.min(30_000, 32 * pollMs) }),
          abort.signal,
        );
      }
    }
  }

  return {
    async start() {
      if (loop) return;
      abort = new AbortController();
      await ensureLock();
      loop = run();
    },
    async stop() {
      abort.abort();
      await loop;
      loop = null;
      await analyzing;
      await reader?.close();
      reader = null;
      // A database found to hold another chain keeps its own state: nothing is written to it.
      if (status.state !== 'wrong-chain') status.state = 'stopped';
      if (lock?.held() && chainChecked) await writeIndexerStatus(sql, { status: 'stopped' }).catch(() => {});
      if (lock) {
        await lock.release();
        lock = null;
      }
    },
    syncOnce,
    verifyChain: async () => (await ensureChain()).info,
    chainVerified: () => chainVerified,
    status: () => ({ ...status }),
  };
}
