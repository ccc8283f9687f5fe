import { join } from 'node:path';
import { lockDirectory } from './dir-lock.js';
import { createPgSql } from './drivers/pg.js';
import { createPgliteSql } from './drivers/pglite.js';
import { migrate } from './migrate.js';
import { observeSql, type QueryObserver } from './observe.js';
import type { Sql } from './sql.js';

/** How to reach the database: a PostgreSQL URL, or the embedded PGlite directory. */
export interface DatabaseConfig {
  /** PostgreSQL connection string; absent → embedded PGlite. */
  url?: string;
  /** Data directory of the embedded database (default ./.explorer); `memory://` keeps it in memory. */
  dataDir?: string;
  /** Schema to use (search_path); created when missing, as migrations run (a plain lower-case name). */
  schema?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** Per-statement timeout in milliseconds (PostgreSQL). */
  statementTimeoutMs?: number;
  /** Connection timeout in milliseconds (PostgreSQL). */
  connectionTimeoutMs?: number;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /**
   * Apply a migration that rebuilds the chain index even when the database holds one (default false): for an
   * index of a chain that is not anyone's record, such as the demo's simulated one.
   */
  rebuild?: boolean;
  /** Application name reported to PostgreSQL, and named to a second process refused the embedded data dir. */
  applicationName?: string;
  /** Named prepared statements on PostgreSQL (default true); see PgOptions. */
  preparedStatements?: boolean;
  /** Told how long each statement took, by query name (metrics); see observeSql. */
  onQuery?: QueryObserver;
  /** What a `memory://` database starts from: another's `Sql.snapshot()` (migrations then run as usual). */
  snapshot?: Blob;
}

/**
 * Opens the configured database and brings its schema up to date. An embedded data dir is owned by one
 * process: a second one is refused with DirectoryLockedError (see dir-lock.ts) before anything is read. A
 * migration that would drop the index the database holds is refused with RebuildRequiredError (see migrate.ts)
 * unless `rebuild` is set: otherwise only `explorer-server migrate --rebuild` applies it.
 * @example const sql = await openDatabase({ url: process.env.DATABASE_URL })
 */
export async function openDatabase(config: DatabaseConfig = {}): Promise<Sql> {
  const embeddedDir = !config.url && config.dataDir !== 'memory://' ? (config.dataDir ?? '.explorer') : null;
  const lock = embeddedDir ? lockDirectory(embeddedDir, config.applicationName ?? 'explorer') : null;
  let sql: Sql;
  try {
    sql = await connect(config);
  } catch (err) {
    lock?.release();
    throw err;
  }
  if (lock) {
    const inner = sql;
    sql = {
      ...inner,
      close: async () => {
        try {
          await inner.close();
        } finally {
          lock.release();
        }
      },
    };
  }
  if (config.onQuery) sql = observeSql(sql, config.onQuery);
  if (config.migrate !== false) {
    try {
      if (config.schema)
        await sql.exec(`CREATE SCHEMA IF NOT EXISTS ${schemaName(config.schema)}`, 'schema.create');
      await migrate(sql, undefined, { rebuild: config.rebuild });
    } catch (err) {
      await sql.close().catch(() => {});
      throw err;
    }
  }
  return sql;
}

/** A schema name as PostgreSQL folds it unquoted (search_path names it that way); anything else is refused. */
function schemaName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name))
    throw new Error(`schema "${name}" must be a plain lower-case name (letters, digits, underscores)`);
  return name;
}

async function connect(config: DatabaseConfig): Promise<Sql> {
  return config.url
    ? createPgSql({
        connectionString: config.url,
        schema: config.schema,
        max: config.poolSize,
        statementTimeoutMs: config.statementTimeoutMs,
        connectionTimeoutMs: config.connectionTimeoutMs,
        applicationName: config.applicationName,
        preparedStatements: config.preparedStatements,
      })
    : await createPgliteSql({
        dataDir: config.dataDir === 'memory://' ? undefined : join(config.dataDir ?? '.explorer', 'pgdata'),
        schema: config.schema,
        loadDataDir: config.snapshot,
      });
}
