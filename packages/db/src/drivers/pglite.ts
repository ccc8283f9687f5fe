import { PGlite, type Transaction, types } from '@electric-sql/pglite';
import { parseInt8, type Sql, toDatabaseError } from '../sql.js';
import { DISK_FULL, DiskFullError, diskSpace } from './disk-space.js';

/** Options of the embedded PGlite driver. */
export interface PgliteOptions {
  /** Directory of the data files; absent → in memory. */
  dataDir?: string;
  /** Schema to use as search_path. */
  schema?: string;
  /**
   * Free bytes the data directory's filesystem must keep for the database to write (default 64 MiB): below
   * it, writes are refused with DiskFullError while reads go on. See diskGuard.
   */
  reserveBytes?: number;
  /** The data directory to start from, as `Sql.snapshot()` made it, in place of a new one (in memory only). */
  loadDataDir?: Blob;
}

/** Free space below which the embedded database stops writing: a few WAL segments and what a batch writes. */
export const DEFAULT_RESERVE_BYTES = 64 * 1024 * 1024;

/** WAL written since the last checkpoint past which the driver runs one: a segment's worth. */
const CHECKPOINT_AFTER_WAL_BYTES = 16 * 1024 * 1024;
/** How long a reading of the free space is trusted. */
const SPACE_CHECK_MS = 100;

/**
 * WAL settings for one process. PGlite runs PostgreSQL in single-user mode, where no checkpointer runs:
 * neither `checkpoint_timeout` nor `max_wal_size` ever starts a checkpoint, so without the driver's own
 * CHECKPOINTs the WAL only grows (608 MB of it beside 410 MB of tables after a 90,000-transaction sync). What
 * these settings still govern is how many segments a checkpoint keeps for reuse: two to three, renamed in
 * place, so that the WAL's next segments already exist on disk.
 */
const WAL_SETTINGS = ['-c', 'min_wal_size=32MB', '-c', 'max_wal_size=48MB'];

const parsers = {
  [types.INT8]: (v: string) => parseInt8(v),
  [types.NUMERIC]: (v: string) => v,
};

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

/** What a statement outside a transaction goes through first, and how its failure is told. */
interface Guard {
  before(): Promise<void>;
  translate(err: unknown, name: string | undefined): Error;
  /** After a script ran outside a transaction (migrations, VACUUM: they write much WAL at once). */
  afterScript?(): void;
}

const unguarded: Guard = { before: async () => {}, translate: toDatabaseError };

function wrap(
  db: Queryable,
  transaction: Sql['transaction'],
  close: () => Promise<void>,
  guard: Guard = unguarded,
): Sql {
  return {
    driver: 'pglite',
    async query<T>(text: string, params: readonly unknown[] = [], name?: string) {
      await guard.before();
      try {
        const r = await db.query<T>(text, params as unknown[]);
        return r.rows;
      } catch (err) {
        throw guard.translate(err, name);
      }
    },
    async exec(script: string, name?: string) {
      await guard.before();
      try {
        await db.exec(script);
      } catch (err) {
        throw guard.translate(err, name);
      }
      guard.afterScript?.();
    },
    transaction,
    // One process owns an embedded database, so there is never a second writer to keep out.
    tryAdvisoryLock: async () => ({ release: async () => {}, held: () => true, confirm: async () => true }),
    close,
  };
}

/** Longest a transaction waits for the reads in flight before it starts anyway. */
const MAX_READ_PRIORITY_MS = 250;

/**
 * Reads before writes. The embedded database runs one statement or transaction at a time, first come first
 * served, so a reader that arrives during a write transaction would otherwise also wait behind every further
 * one the indexer has lined up: during a sync an API request could wait many of them. A transaction starts
 * once the statements asked outside a transaction have run (or after MAX_READ_PRIORITY_MS, so a steady stream
 * of reads cannot hold the writer back for ever).
 */
function readsFirst() {
  let inFlight = 0;
  let waiters: (() => void)[] = [];
  const settle = () => {
    if (inFlight > 0) return;
    const ready = waiters;
    waiters = [];
    for (const w of ready) w();
  };
  const count = async <T>(run: () => Promise<T>): Promise<T> => {
    inFlight++;
    try {
      return await run();
    } finally {
      inFlight--;
      settle();
    }
  };
  return {
    track: (db: PGlite): Queryable => ({
      query: ((text: string, params?: unknown[]) => count(() => db.query(text, params))) as PGlite['query'],
      exec: ((script: string) => count(() => db.exec(script))) as PGlite['exec'],
    }),
    drained: (): Promise<void> => {
      if (inFlight === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, MAX_READ_PRIORITY_MS);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/**
 * Keeps the embedded database from running out of disk in the middle of a write. PostgreSQL writes its WAL
 * inside critical sections, where a failed write is a PANIC; a real server then restarts and recovers, but in
 * PGlite the PANIC's abort() returns into the same instance with the WAL write lock still held, and the next
 * commit waits for that lock in a loop no other process can end: the thread spins, the event loop never runs
 * again (no log, no HTTP, no SIGTERM handler) and nothing resumes. So the space is checked before the database
 * is asked to write: below `reserve` free bytes the session becomes read-only (`default_transaction_read_only`,
 * which stops a write before it writes WAL), writes are refused with DiskFullError and reads go on; once there
 * is room again, writes are allowed again. Checkpoints keep the WAL small, and a checkpoint is tried first
 * when space runs low, since it may free the segments that filled the disk.
 */
function diskGuard(db: PGlite, dir: string, reserve: number) {
  let readOnly = false;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let low: DiskFullError | null = null;
  let checking: Promise<void> | null = null;
  let checkpointing: Promise<void> | null = null;

  const check = async () => {
    let space = diskSpace(dir);
    if (space && space.free < reserve && !readOnly) {
      await db.exec('CHECKPOINT').catch(() => {});
      space = diskSpace(dir);
    }
    low = space && space.free < reserve ? new DiskFullError(dir, space.free, space.total, reserve) : null;
    if (low && !readOnly) {
      await db.exec('SET default_transaction_read_only = on');
      readOnly = true;
    } else if (!low && readOnly) {
      await db.exec('SET default_transaction_read_only = off');
      readOnly = false;
    }
  };
  /** The space as of at most SPACE_CHECK_MS ago; null when there is room to write. */
  const refresh = async (): Promise<DiskFullError | null> => {
    if (performance.now() - checkedAt >= SPACE_CHECK_MS) {
      checking ??= check().finally(() => {
        checkedAt = performance.now();
        checking = null;
      });
    }
    if (checking) await checking;
    return low;
  };

  /** A write refused by the read-only session, or a file PostgreSQL could not extend, as one sentence. */
  const diskError = (err: unknown): DiskFullError | null => {
    if (err instanceof DiskFullError) return err;
    const code = (err as { code?: unknown })?.code;
    if (!((readOnly && code === '25006') || code === DISK_FULL)) return null;
    const space = diskSpace(dir);
    return space ? new DiskFullError(dir, space.free, space.total, reserve) : null;
  };
  const guard: Guard = {
    before: async () => {
      await refresh();
    },
    translate: (err, name) => diskError(err) ?? toDatabaseError(err, name),
  };

  const afterWrite = (): void => {
    if (checkpointing) return;
    checkpointing = (async () => {
      const [row] = (
        await db.query<{ since: number | null }>(
          'SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), (pg_control_checkpoint()).redo_lsn)::int8 AS since',
        )
      ).rows;
      if (Number(row?.since ?? 0) >= CHECKPOINT_AFTER_WAL_BYTES) await db.exec('CHECKPOINT');
    })()
      // A checkpoint that fails now is tried again after the next write.
      .catch(() => {})
      .finally(() => {
        checkpointing = null;
      });
  };
  guard.afterScript = afterWrite;

  return {
    guard,
    diskError,
    /** Refuses a write transaction before it begins when space is low. */
    async beforeTransaction(): Promise<void> {
      const full = await refresh();
      if (full) throw full;
    },
    /**
     * After a write: a checkpoint once a segment's worth of WAL has been written since the last one. The
     * question costs under a millisecond, a write transaction of the indexer tens of them.
     */
    afterWrite,
    idle: (): Promise<void> => Promise.all([checking, checkpointing]).then(() => {}),
  };
}

/**
 * Opens (or creates) an embedded PostgreSQL database behind the Sql interface.
 * @example const sql = await createPgliteSql({ dataDir: '.explorer/pgdata' })
 */
export async function createPgliteSql(opts: PgliteOptions = {}): Promise<Sql> {
  const db = await PGlite.create(opts.dataDir, {
    parsers,
    startParams: [...PGlite.defaultStartParams, ...WAL_SETTINGS],
    ...(opts.loadDataDir && !opts.dataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  if (opts.schema) {
    await db.exec(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"; SET search_path TO "${opts.schema}"`);
  }
  const disk = opts.dataDir ? diskGuard(db, opts.dataDir, opts.reserveBytes ?? DEFAULT_RESERVE_BYTES) : null;
  const close = async () => {
    await disk?.idle();
    // What the last writes left in the WAL is checkpointed, so that the segments left on disk are the few kept.
    if (disk) await db.exec('CHECKPOINT').catch(() => {});
    await db.close();
  };
  const reads = readsFirst();
  const self: Sql = wrap(
    reads.track(db),
    async (fn) => {
      await disk?.beforeTransaction();
      await reads.drained();
      const result = await db
        .transaction(async (tx) => {
          const inner: Sql = wrap(
            tx,
            (f) => f(inner),
            async () => {},
            disk ? { before: async () => {}, translate: disk.guard.translate } : unguarded,
          );
          return fn(inner);
        })
        .catch((err) => {
          throw disk?.diskError(err) ?? err;
        });
      disk?.afterWrite();
      return result;
    },
    close,
    disk?.guard,
  );
  self.snapshot = async () => {
    await reads.drained();
    return db.dumpDataDir('none');
  };
  return self;
}
