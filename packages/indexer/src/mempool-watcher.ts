import {
  type ChainEvent,
  type EventDraft,
  estimateFees,
  FEE_RECENT_BLOCKS,
  type FeeEstimates,
  type Logger,
  type MempoolEntry,
  type MempoolSummary,
  mempoolEntries,
  nodeMinFeeRate,
  silentLogger,
  summarizeMempool,
} from '@explorer/core';
import {
  appendEvents,
  clearMempoolAddressTxs,
  deleteMempoolAddressTxs,
  insertMempoolAddressTxs,
  lockTipShared,
  type MempoolAddressTxRow,
  readBalances,
  readPrevouts,
  readReorgCount,
  recentBlockFloors,
  type Sql,
  writeMempoolState,
} from '@explorer/db';
import { backoffMs } from './backoff.js';
import { type ChainSelection, detectChain } from './chains/detect.js';
import type { ChainProfile } from './chains/profile.js';
import type { NodeClient } from './node-client.js';
import { sleep } from './sleep.js';

/** Most txids a `mempool` event lists of those added, and of those removed (its counts carry the totals). */
export const MAX_EVENT_TXIDS = 1_000;

/** Mempool transactions decoded per request to the node while the watcher rebuilds its rows. */
const DECODE_CHUNK = 2_000;

/** Options of the mempool watcher. */
export interface MempoolWatcherOptions {
  sql: Sql;
  node: NodeClient;
  /** What the operator said of the chain (CHAIN, CHAIN_NETWORK); the rest is detected from the node. */
  chain?: ChainSelection;
  /** A chain profile to use as it is, instead of detecting one. */
  profile?: ChainProfile;
  log?: Logger;
  /** Milliseconds between readings of the mempool (default 2,000). */
  pollMs?: number;
  /** Recent blocks whose lowest included fee rates make the floor (default 10). */
  recentBlocks?: number;
  /** Target seconds between blocks; default the chain profile's. */
  blockSeconds?: number;
  /** Virtual bytes one projected block holds; default the chain profile's block limit. */
  blockVsize?: number;
  /** Events the log keeps (default 10,000). */
  retain?: number;
  /** Called with the events of each committed reading, in id order. */
  onEvents?: (events: ChainEvent[]) => void;
  /** Milliseconds since the epoch (tests pin it); the reading's time comes from it. */
  clock?: () => number;
}

/** What one reading of the mempool found and stored. */
export interface MempoolReading {
  /** The first reading since start: it sets the baseline the next ones are compared with, and records no event. */
  baseline: boolean;
  /**
   * The reading replaced the addresses' mempool rows with the whole mempool's: the first one since start, and
   * the first after the indexer rolled back a reorg.
   */
  rebuilt: boolean;
  /** Txids that entered since the previous reading, in the node's order (all of them). */
  added: string[];
  /** Txids that left since the previous reading (all of them). */
  removed: string[];
  summary: MempoolSummary;
  fees: FeeEstimates;
  /** The events committed with the reading (none for the baseline, or when nothing changed). */
  events: ChainEvent[];
}

/** What the watcher is doing. */
export interface MempoolWatcherStatus {
  running: boolean;
  /** Readings stored since start. */
  readings: number;
  /** Failed readings in a row (0 after a success). */
  failures: number;
  /** Why the last reading failed; null after a success. */
  error: string | null;
  /** When the last stored reading was taken (ISO 8601); null before the first. */
  lastReadingAt: string | null;
}

/** Reads the node's mempool on a schedule, stores the summary and fee estimates, and records mempool events. */
export interface MempoolWatcher {
  /** Reads the mempool every `pollMs` in the background until `stop()`; failures are logged and retried. */
  start(): Promise<void>;
  /** Stops after the reading in flight; resolves once stopped. */
  stop(): Promise<void>;
  /** Takes one reading now (after any in flight); throws what made it fail. */
  readOnce(): Promise<MempoolReading>;
  status(): MempoolWatcherStatus;
}

/** One address's part in the transactions that entered the mempool. */
interface Activity {
  txids: string[];
  received: bigint;
  sent: bigint;
}

/** What the watcher keeps of a decoded mempool transaction: what it spends and whom it pays. */
interface MempoolTx {
  inputs: { prevTxid: string | null; prevVout: number | null }[];
  outputs: { vout: number; address: string | null; value: bigint }[];
}

/** One address's part in one transaction. */
type Part = { received: bigint; sent: bigint };

/** The mempool watcher's defaults (the server's `MEMPOOL_POLL_MS` default too). */
export const MEMPOOL_WATCHER_DEFAULTS = { pollMs: 2_000 } as const;

/**
 * Creates the mempool watcher. Each reading asks the node `getmempoolinfo` and `getrawmempool true`, compares
 * the txids with the previous reading, computes the fee estimates (docs/fees.md) and, in one database
 * transaction, stores the reading in `mempool_state` (what every API replica serves), keeps the addresses' mempool
 * rows (`mempool_address_txs`: added for entering transactions, removed for leaving ones) and, when transactions
 * entered or left, appends a `mempool` event and an unconfirmed `address` event for the addresses the entering
 * transactions pay or spend from. The first reading after start only sets the events' baseline (and makes the rows from the whole mempool). Run it beside the
 * indexer, in the process that holds the writer lock: it is the one writer of mempool events.
 * @example const watcher = createMempoolWatcher({ sql, node, onEvents: publish }); await watcher.start()
 */
export function createMempoolWatcher(opts: MempoolWatcherOptions): MempoolWatcher {
  const { sql, node } = opts;
  const log = opts.log ?? silentLogger;
  const pollMs = opts.pollMs ?? MEMPOOL_WATCHER_DEFAULTS.pollMs;
  const recentBlocks = opts.recentBlocks ?? FEE_RECENT_BLOCKS;
  const clock = opts.clock ?? Date.now;
  let profile: ChainProfile | null = opts.profile ?? null;
  /** The txids of the last stored reading; null before the baseline. */
  let committed: Set<string> | null = null;
  /** Mempool transactions decoded so far (to find what a child spends), kept while they stay in the mempool. */
  const decoded = new Map<string, MempoolTx>();
  /** The indexer's reorg count the last stored reading saw; a change rebuilds the rows. */
  let committedReorgs: number | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let loop: Promise<void> | null = null;
  let abort = new AbortController();
  const status: MempoolWatcherStatus = {
    running: false,
    readings: 0,
    failures: 0,
    error: null,
    lastReadingAt: null,
  };

  const announce = (events: ChainEvent[]) => {
    if (events.length === 0 || !opts.onEvents) return;
    try {
      opts.onEvents(events);
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'an event listener failed');
    }
  };

  /**
   * Decodes these mempool txids (those already decoded are not asked again), a chunk at a time, keeping only
   * what spends and payments need; gone ones are left out.
   */
  async function decode(p: ChainProfile, txids: readonly string[]): Promise<void> {
    const missing = txids.filter((t) => !decoded.has(t));
    for (let start = 0; start < missing.length; start += DECODE_CHUNK) {
      const txs = await p.fetchTxs(node, missing.slice(start, start + DECODE_CHUNK));
      for (const tx of txs)
        if (tx)
          decoded.set(tx.txid, {
            inputs: tx.inputs.map((i) => ({ prevTxid: i.prevTxid, prevVout: i.prevVout })),
            outputs: tx.outputs.map((o) => ({ vout: o.vout, address: o.address, value: o.value })),
          });
    }
  }

  /**
   * What each of these transactions pays to and spends from each address, in the order given: outputs from
   * their own bytes; inputs from the stored outputs they spend, or from the mempool transaction that created
   * them. A transaction the node no longer has is left out.
   */
  async function partsOf(p: ChainProfile, txids: string[], inMempool: Set<string>) {
    await decode(p, txids);
    const txs = txids.flatMap((t) => {
      const tx = decoded.get(t);
      return tx ? [{ txid: t, tx }] : [];
    });
    // A parent that entered before the baseline was never decoded: decode it now.
    const parents = new Set<string>();
    for (const { tx } of txs)
      for (const i of tx.inputs)
        if (i.prevTxid && inMempool.has(i.prevTxid) && !decoded.has(i.prevTxid)) parents.add(i.prevTxid);
    await decode(p, [...parents]);
    const confirmed: { txid: string; vout: number }[] = [];
    for (const { tx } of txs)
      for (const i of tx.inputs)
        if (i.prevTxid !== null && i.prevVout !== null && !decoded.has(i.prevTxid))
          confirmed.push({ txid: i.prevTxid, vout: i.prevVout });
    const stored = await readPrevouts(sql, confirmed);
    const storedAt = new Map(confirmed.map((o, k) => [`${o.txid}:${o.vout}`, stored[k]]));

    const parts = new Map<string, Map<string, Part>>();
    for (const { txid, tx } of txs) {
      const byAddress = new Map<string, Part>();
      const touch = (address: string) => {
        let a = byAddress.get(address);
        if (!a) {
          a = { received: 0n, sent: 0n };
          byAddress.set(address, a);
        }
        return a;
      };
      for (const i of tx.inputs) {
        if (i.prevTxid === null || i.prevVout === null) continue;
        const prev =
          decoded.get(i.prevTxid)?.outputs.find((o) => o.vout === i.prevVout) ??
          storedAt.get(`${i.prevTxid}:${i.prevVout}`);
        if (prev?.address) touch(prev.address).sent += prev.value;
      }
      for (const o of tx.outputs) if (o.address) touch(o.address).received += o.value;
      parts.set(txid, byAddress);
    }
    return parts;
  }

  /** Who the entering transactions pay and spend from, by address (for the unconfirmed `address` event). */
  function activityOf(added: string[], parts: Map<string, Map<string, Part>>) {
    const byAddress = new Map<string, Activity>();
    for (const txid of added) {
      for (const [address, part] of parts.get(txid) ?? []) {
        let a = byAddress.get(address);
        if (!a) {
          a = { txids: [], received: 0n, sent: 0n };
          byAddress.set(address, a);
        }
        a.txids.push(txid);
        a.received += part.received;
        a.sent += part.sent;
      }
    }
    return byAddress;
  }

  async function read(): Promise<MempoolReading> {
    profile ??= await detectChain(node, opts.chain ?? {}, log);
    const p = profile;
    const [info, verbose] = await Promise.all([
      node.call<unknown>('getmempoolinfo'),
      node.call<unknown>('getrawmempool', [true]),
    ]);
    const at = clock();
    const entries: MempoolEntry[] = mempoolEntries(verbose);
    const summary = summarizeMempool(info, verbose, at);
    const fees = estimateFees({
      txs: entries,
      recentFloors: await recentBlockFloors(sql, recentBlocks),
      minRelayRate: nodeMinFeeRate(info),
      blockVsize: opts.blockVsize ?? p.info.maxBlockVsize,
      blockSeconds: opts.blockSeconds ?? p.info.blockSeconds,
      at,
    });
    const now = new Set(entries.map((e) => e.txid));
    const before = committed;
    const added = before ? entries.filter((e) => !before.has(e.txid)).map((e) => e.txid) : [];
    const removed = before ? [...before].filter((t) => !now.has(t)) : [];
    // What changed while the watcher was stopped is unknown, and a rollback returns confirmed transactions to
    // the mempool without them entering between two readings: then the rows are made again from the whole mempool.
    const reorgs = await readReorgCount(sql);
    const rebuild = before === null || reorgs !== committedReorgs;
    const stored = rebuild ? entries.map((e) => e.txid) : added;
    const parts = stored.length > 0 ? await partsOf(p, stored, now) : new Map<string, Map<string, Part>>();
    const activity = activityOf(added, parts);
    const entryAt = new Map(entries.map((e) => [e.txid, e]));
    const seenAt = Math.floor(at / 1000);
    const rows: MempoolAddressTxRow[] = [];
    for (const [txid, byAddress] of parts) {
      const e = entryAt.get(txid)!;
      for (const [address, part] of byAddress)
        rows.push({
          address,
          txid,
          received: part.received,
          sent: part.sent,
          firstSeen: e.time ?? seenAt,
          fee: BigInt(e.fee),
          vsize: e.vsize,
        });
    }

    let reorgsSeen = reorgs;
    const events = await sql.transaction(async (tx) => {
      // After the tip's lock, no block write or rollback interleaves with the rows' changes.
      const locked = await lockTipShared(tx);
      // A rollback since the count was read: the next reading rebuilds.
      if (locked !== reorgs) reorgsSeen = -1;
      await writeMempoolState(tx, { takenAt: new Date(at).toISOString(), summary, fees });
      if (rebuild) await clearMempoolAddressTxs(tx);
      else await deleteMempoolAddressTxs(tx, removed);
      await insertMempoolAddressTxs(tx, rows);
      if (added.length === 0 && removed.length === 0) return [];
      const drafts: EventDraft[] = [
        {
          type: 'mempool',
          data: {
            added: added.slice(0, MAX_EVENT_TXIDS),
            removed: removed.slice(0, MAX_EVENT_TXIDS),
            addedCount: added.length,
            removedCount: removed.length,
            count: summary.count,
            vsize: summary.bytes,
            feeRateBuckets: summary.feeRateBuckets,
            fees,
          },
        },
      ];
      if (activity.size > 0) {
        const addresses = [...activity.keys()].sort();
        // Read in the transaction that records the event: the confirmed balance as of this moment.
        const balances = await readBalances(tx, addresses);
        drafts.push({
          type: 'address',
          data: {
            confirmed: false,
            height: null,
            blockHash: null,
            activity: addresses.map((address) => {
              const a = activity.get(address)!;
              return {
                address,
                txids: a.txids,
                received: a.received.toString(),
                sent: a.sent.toString(),
                balance: (balances.get(address) ?? 0n).toString(),
                mempoolDelta: (a.received - a.sent).toString(),
              };
            }),
          },
        });
      }
      return appendEvents(tx, drafts, { retain: opts.retain });
    });
    // Only a committed reading moves the baseline: a failed one is compared again, in full, next time.
    committed = now;
    committedReorgs = reorgsSeen;
    for (const txid of decoded.keys()) if (!now.has(txid)) decoded.delete(txid);
    status.readings++;
    status.lastReadingAt = new Date(at).toISOString();
    announce(events);
    return { baseline: before === null, rebuilt: rebuild, added, removed, summary, fees, events };
  }

  function readOnce(): Promise<MempoolReading> {
    const next = queue.then(read, read);
    queue = next.catch(() => {});
    return next;
  }

  async function run(): Promise<void> {
    while (!abort.signal.aborted) {
      let wait = pollMs;
      try {
        await readOnce();
        if (status.failures > 0) log.info({ failures: status.failures }, 'mempool watcher: reading again');
        status.failures = 0;
        status.error = null;
      } catch (err) {
        const message = (err as Error).message ?? String(err);
        status.failures++;
        // One line when readings start failing (or fail differently), not one per attempt.
        if (status.failures === 1 || message !== status.error)
          log.warn({ err: message }, 'mempool watcher: reading the mempool failed; retrying');
        status.error = message;
        wait = backoffMs(status.failures, { firstMs: 2 * pollMs, maxMs: Math.min(30_000, 16 * pollMs) });
      }
      await sleep(wait, abort.signal);
    }
  }

  return {
    async start() {
      if (loop) return;
      abort = new AbortController();
      // What changed while stopped is not known: the first reading sets the baseline again.
      committed = null;
      status.running = true;
      loop = run();
    },
    async stop() {
      abort.abort();
      await loop;
      await queue;
      loop = null;
      status.running = false;
    },
    readOnce,
    status: () => ({ ...status }),
  };
}
