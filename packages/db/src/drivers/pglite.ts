import { PGlite, type Transaction, types } from '@electric-sql/pglite';
import { parseInt8, type Sql, toDatabaseError } from '../sql.js';

/** Options of the embedded PGlite driver. */
export interface PgliteOptions {
  /** Directory of the data files; absent → in memory. */
  dataDir?: string;
  /** Schema to use as search_path. */
  schema?: string;
}

const parsers = {
  [types.INT8]: (v: string) => parseInt8(v),
  [types.NUMERIC]: (v: string) => v,
};

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

function wrap(db: Queryable, transaction: Sql['transaction'], close: () => Promise<void>): Sql {
  return {
    driver: 'pglite',
    async query<T>(text: string, params: readonly unknown[] = [], name?: string) {
      try {
        const r = await db.query<T>(text, params as unknown[]);
        return r.rows;
      } catch (err) {
        throw toDatabaseError(err, name);
      }
    },
    async exec(script: string, name?: string) {
      try {
        await db.exec(script);
      } catch (err) {
        throw toDatabaseError(err, name);
      }
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
 * Opens (or creates) an embedded PostgreSQL database behind the Sql interface.
 * @example const sql = await createPgliteSql({ dataDir: '.explorer/pgdata' })
 */
export async function createPgliteSql(opts: PgliteOptions = {}): Promise<Sql> {
  const db = await PGlite.create(opts.dataDir, { parsers });
  if (opts.schema) {
    await db.exec(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"; SET search_path TO "${opts.schema}"`);
  }
  const close = () => db.close();
  const reads = readsFirst();
  const self: Sql = wrap(
    reads.track(db),
    async (fn) => {
      await reads.drained();
      return db.transaction(async (tx) => {
        const inner: Sql = wrap(
          tx,
          (f) => f(inner),
          async () => {},
        );
        return fn(inner);
      });
    },
    close,
  );
  return self;
}
