import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type AdvisoryLock, parseInt8, type Sql, toDatabaseError } from '../sql.js';
import { copyText } from './copy-text.js';

/** Options of the node-postgres driver. */
export interface PgOptions {
  connectionString: string;
  /** Schema to use as search_path (tests isolate themselves this way). */
  schema?: string;
  /** Pool size (default 10). */
  max?: number;
  /** Milliseconds a statement may run before the server cancels it (0 = no limit). */
  statementTimeoutMs?: number;
  /** Milliseconds to wait for a connection. */
  connectionTimeoutMs?: number;
  /** Application name shown in pg_stat_activity. */
  applicationName?: string;
  /**
   * Run statements as named prepared statements, so each connection parses and plans a statement once
   * (default true). Turn off behind a pooler that cannot keep prepared statements (PgBouncer < 1.21 in
   * transaction mode).
   */
  preparedStatements?: boolean;
}

/** Most distinct statement texts prepared per pool; beyond it statements run unnamed (bounds server memory). */
const MAX_PREPARED = 1_000;

/**
 * Names statements by a digest of their text: equal texts share one prepared statement per connection. Only
 * statements with a query name (those of the query modules) are prepared; one-off statements run unnamed.
 */
function statementNamer(enabled: boolean): (text: string, label: string | undefined) => string | undefined {
  const names = new Map<string, string>();
  return (text, label) => {
    if (!enabled || label === undefined) return undefined;
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= MAX_PREPARED) return undefined;
      name = `x${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
      names.set(text, name);
    }
    return name;
  };
}

const INT8 = 20;
const NUMERIC = 1700;
const BYTEA = 17;

const typeParsers = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8) return (v: string) => parseInt8(v);
    if (oid === NUMERIC) return (v: string) => v;
    if (oid === BYTEA) {
      const parse = pg.types.getTypeParser(oid, 'text') as (v: string) => Buffer;
      return (v: string) => new Uint8Array(parse(v));
    }
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * True for the error of a prepared statement whose result type changed under it (SQLSTATE 0A000, which
 * PostgreSQL raises for little else that a statement valid a moment ago could meet).
 */
const isStalePlan = (err: unknown) => (err as { code?: string })?.code === '0A000';

/** Streams rows into a table through `COPY … FROM STDIN` on one client. */
async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  name?: string,
): Promise<void> {
  if (rows.length === 0) return;
  for (const id of [table, ...columns]) {
    if (!IDENTIFIER.test(id)) throw new TypeError(`not a plain identifier: ${JSON.stringify(id)}`);
  }
  try {
    const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
    await pipeline(Readable.from(copyText(rows)), stream);
  } catch (err) {
    throw toDatabaseError(err, name);
  }
}

function clientSql(
  client: pg.PoolClient,
  nameOf: (text: string, label: string | undefined) => string | undefined,
): Sql {
  const self: Sql = {
    driver: 'pg',
    async query<T>(text: string, params: readonly unknown[] = [], name?: string) {
      try {
        const r = await client.query({ name: nameOf(text, name), text, values: params as unknown[] });
        return r.rows as T[];
      } catch (err) {
        throw toDatabaseError(err, name);
      }
    },
    async exec(script: string, name?: string) {
      try {
        await client.query(script);
      } catch (err) {
        throw toDatabaseError(err, name);
      }
    },
    copyRows: (table, columns, rows, name) => copyRows(client, table, columns, rows, name),
    transaction: (fn) => fn(self),
    tryAdvisoryLock: () =>
      Promise.reject(new Error('advisory locks are taken on the pool, not inside a transaction')),
    close: async () => {},
  };
  return self;
}

/**
 * A client taken from the pool with an 'error' listener for as long as it is out: a checked-out client whose
 * server connection ends (pg_terminate_backend, a restart, the network) emits 'error', and an EventEmitter
 * with no listener would end the process. The failure is still seen by the query in flight, or by the next.
 */
async function checkout(
  pool: pg.Pool,
  what: string,
): Promise<{ client: pg.PoolClient; lost(): boolean; release(broken?: boolean): void }> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw toDatabaseError(err, `${what}.connect`);
  }
  let lost = false;
  const listener = () => {
    lost = true;
  };
  client.on('error', listener);
  let released = false;
  return {
    client,
    lost: () => lost,
    release(broken = false) {
      if (released) return;
      released = true;
      client.off('error', listener);
      // A client that lost its connection is never handed out again.
      client.release(broken || lost);
    },
  };
}

/** The pool's defaults: what an option not given is, and the server's `DB_POOL_SIZE` and `DB_CONNECT_TIMEOUT_MS` defaults. */
export const PG_POOL_DEFAULTS = { max: 10, connectionTimeoutMs: 5_000 } as const;

/**
 * Opens a node-postgres pool behind the Sql interface.
 * @example const sql = createPgSql({ connectionString: process.env.DATABASE_URL! })
 */
export function createPgSql(opts: PgOptions): Sql {
  const options: string[] = [];
  if (opts.schema) options.push(`-c search_path=${opts.schema}`);
  if (opts.statementTimeoutMs) options.push(`-c statement_timeout=${opts.statementTimeoutMs}`);
  const pool = new pg.Pool({
    connectionString: opts.connectionString,
    max: opts.max ?? PG_POOL_DEFAULTS.max,
    connectionTimeoutMillis: opts.connectionTimeoutMs ?? PG_POOL_DEFAULTS.connectionTimeoutMs,
    idleTimeoutMillis: 30_000,
    application_name: opts.applicationName ?? 'explorer',
    // TCP keepalive, so a connection dropped without a word (a failover, a cut network) is noticed.
    keepAlive: true,
    options: options.length ? options.join(' ') : undefined,
    types: typeParsers,
  });
  const poolSize = opts.max ?? PG_POOL_DEFAULTS.max;
  const nameOf = statementNamer(opts.preparedStatements !== false);
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  return {
    driver: 'pg',
    async query<T>(text: string, params: readonly unknown[] = [], name?: string) {
      const query = { name: nameOf(text, name), text, values: params as unknown[] };
      try {
        return (await pool.query(query)).rows as T[];
      } catch (err) {
        if (!isStalePlan(err)) throw toDatabaseError(err, name);
      }
      // A prepared statement outlives a change of its table by another process (a migration): PostgreSQL then
      // refuses it on that connection for good ("cached plan must not change result type", 0A000). Such
      // connections are closed, and the query asked again, until one prepares it afresh.
      for (let attempt = 1; ; attempt++) {
        const { client, release } = await checkout(pool, name ?? 'query');
        let stale = false;
        try {
          return (await client.query(query)).rows as T[];
        } catch (err) {
          stale = isStalePlan(err);
          if (!stale || attempt > poolSize) throw toDatabaseError(err, name);
        } finally {
          release(stale);
        }
      }
    },
    async exec(script: string, name?: string) {
      try {
        await pool.query(script);
      } catch (err) {
        throw toDatabaseError(err, name);
      }
    },
    async copyRows(table, columns, rows, name) {
      const { client, release } = await checkout(pool, name ?? 'copy');
      let broken = false;
      try {
        await copyRows(client, table, columns, rows, name);
      } catch (err) {
        broken = true;
        throw err;
      } finally {
        release(broken);
      }
    },
    async transaction(fn) {
      const { client, release } = await checkout(pool, 'transaction');
      try {
        await client.query('BEGIN');
      } catch (err) {
        release(true);
        throw toDatabaseError(err, 'transaction.begin');
      }
      let broken = false;
      try {
        const result = await fn(clientSql(client, nameOf));
        try {
          await client.query('COMMIT');
        } catch (err) {
          throw toDatabaseError(err, 'transaction.commit');
        }
        return result;
      } catch (err) {
        // A statement this connection prepared went stale: the connection is not handed out again.
        broken = isStalePlan(err);
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        // Driver failures were translated where they happened; the caller's own errors pass unchanged.
        throw err;
      } finally {
        release(broken);
      }
    },
    async tryAdvisoryLock(key: number): Promise<AdvisoryLock | null> {
      const { client, lost, release } = await checkout(pool, 'advisory-lock');
      let session: number;
      try {
        const r = await client.query<{ ok: boolean; pid: number }>(
          'SELECT pg_try_advisory_lock(hashtext(current_schema()), $1) AS ok, pg_backend_pid() AS pid',
          [key],
        );
        if (!r.rows[0]?.ok) {
          release();
          return null;
        }
        session = r.rows[0].pid;
      } catch (err) {
        release(true);
        throw toDatabaseError(err, 'advisory-lock.take');
      }
      let released = false;
      return {
        held: () => !lost() && !released,
        async confirm(tx) {
          if (lost() || released) return false;
          // A two-key advisory lock shows in pg_locks with objsubid 2 and the second key as objid.
          const rows = await tx.query<{ held: boolean }>(
            `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = $1 AND objid = $2
               AND objsubid = 2 AND granted) AS held`,
            [session, key],
            'advisory-lock.confirm',
          );
          return rows[0]?.held === true;
        },
        async release() {
          if (released) return;
          released = true;
          if (lost()) {
            release(true);
            return;
          }
          try {
            await client.query('SELECT pg_advisory_unlock(hashtext(current_schema()), $1)', [key]);
            release();
          } catch {
            release(true);
          }
        },
      };
    },
    // node-postgres queues every checkout until its next tick, even one an idle connection is about to serve: those
    // are not waiting, only the callers beyond the idle connections are.
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: Math.max(0, pool.waitingCount - pool.idleCount),
    }),
    close: () => pool.end(),
  };
}
