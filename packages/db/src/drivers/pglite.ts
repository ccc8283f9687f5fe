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
  const self: Sql = wrap(
    db,
    (fn) =>
      db.transaction(async (tx) => {
        const inner: Sql = wrap(
          tx,
          (f) => f(inner),
          async () => {},
        );
        return fn(inner);
      }),
    close,
  );
  return self;
}
