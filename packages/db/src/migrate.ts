import { migrations as allMigrations, type Migration } from './migrations/index.js';
import type { Sql } from './sql.js';

// Serialises concurrent starts (several API replicas, an indexer) so each migration runs once.
const MIGRATION_LOCK = 7_301_001;

/** What a migration run did. */
export interface MigrateResult {
  applied: number[];
  current: number;
}

/** How a migration run may proceed. */
export interface MigrateOptions {
  /** Apply a migration that rebuilds the index even when the database holds indexed blocks (default false). */
  rebuild?: boolean;
}

/** The chain index a database holds: how many blocks, up to which height. */
export interface IndexedChain {
  blocks: number;
  tipHeight: number;
}

/** What a migration run would do, read without changing anything. */
export interface MigrationPlan {
  /** The schema version now (0 for a database never migrated). */
  current: number;
  /** The migrations a run would apply, in order. */
  pending: Migration[];
  /** True when one of them drops the chain index for the indexer to rebuild. */
  rebuildsIndex: boolean;
  /** The chain index the database holds; null when it holds none (a rebuild then loses nothing). */
  index: IndexedChain | null;
}

/** What a migration that rebuilds the index drops, and what it keeps: the contract of `rebuildsIndex`. */
export const INDEX_REBUILD = {
  drops: 'the indexed blocks, certificates, transactions and addresses, and the statistics made from them',
  keeps:
    'API keys, webhooks and their deliveries, the events log, market data, and pool and label definitions',
} as const;

/** A pending migration would drop the chain index the database holds, and the run was not told to rebuild. */
export class RebuildRequiredError extends Error {
  override readonly name = 'RebuildRequiredError';
  constructor(
    readonly migration: Migration,
    readonly index: IndexedChain,
    /** The schema version the database was left at (migrations before this one, applied in the same run, stay). */
    readonly current: number,
  ) {
    super(
      `the database holds an index of ${index.blocks} blocks (up to height ${index.tipHeight}), and schema ` +
        `version ${migration.version} (${migration.name}) rebuilds the chain index from the node: it drops ` +
        `${INDEX_REBUILD.drops}, and keeps ${INDEX_REBUILD.keeps}. Nothing of it was applied (schema at ` +
        `version ${current}); to rebuild, run \`explorer-server migrate --rebuild\` (docs/operations.md#upgrading)`,
    );
  }
}

/**
 * Applies every migration not yet recorded, each in its own transaction together with its record,
 * so a failing migration leaves the database exactly as it was. Safe to call on every start.
 * A migration that rebuilds the index is applied to a database holding indexed blocks only with
 * `{ rebuild: true }`; otherwise RebuildRequiredError, with the migrations before it applied.
 * @example await migrate(sql)
 */
export async function migrate(
  sql: Sql,
  migrations: readonly Migration[] = allMigrations,
  opts: MigrateOptions = {},
): Promise<MigrateResult> {
  await sql.query(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    [],
    'migrations.create-table',
  );
  const applied: number[] = [];
  for (const m of inOrder(migrations)) {
    const done = await sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK], 'migrations.lock');
      const seen = await tx.query(
        'SELECT 1 FROM schema_migrations WHERE version = $1',
        [m.version],
        'migrations.seen',
      );
      if (seen.length > 0) return false;
      // Asked under the lock: the index another process wrote a moment ago counts. A database migrated from
      // nothing in this run holds none, and is migrated without asking.
      if (m.rebuildsIndex && !opts.rebuild) {
        const index = await indexedChain(tx);
        if (index) throw new RebuildRequiredError(m, index, await schemaVersion(tx));
      }
      // A migration takes as long as the tables it rewrites or fills, not a request's time: the statement
      // timeout of the connection (DB_STATEMENT_TIMEOUT_MS) would cancel it on a large index.
      await tx.exec('SET LOCAL statement_timeout = 0', 'migrations.no-timeout');
      await tx.exec(m.sql, `migration.${m.version}.${m.name}`);
      await tx.query(
        'INSERT INTO schema_migrations (version, name) VALUES ($1, $2)',
        [m.version, m.name],
        'migrations.record',
      );
      return true;
    });
    if (done) applied.push(m.version);
  }
  return { applied, current: await schemaVersion(sql) };
}

/**
 * What `migrate` would apply, whether any of it rebuilds the index, and the index the database holds, read
 * without creating or changing anything (a database never migrated has everything pending).
 * @example const plan = await pendingMigrations(sql); if (plan.rebuildsIndex && plan.index) …
 */
export async function pendingMigrations(
  sql: Sql,
  migrations: readonly Migration[] = allMigrations,
): Promise<MigrationPlan> {
  const recorded = (await exists(sql, 'schema_migrations'))
    ? await sql.query<{ version: number }>('SELECT version FROM schema_migrations', [], 'migrations.recorded')
    : [];
  const done = new Set(recorded.map((r) => r.version));
  const pending = inOrder(migrations).filter((m) => !done.has(m.version));
  return {
    current: Math.max(0, ...done),
    pending,
    rebuildsIndex: pending.some((m) => m.rebuildsIndex),
    index: await indexedChain(sql),
  };
}

const inOrder = (migrations: readonly Migration[]) => [...migrations].sort((a, b) => a.version - b.version);

async function schemaVersion(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ v: number | null }>(
    'SELECT max(version) AS v FROM schema_migrations',
    [],
    'migrations.current',
  );
  return row?.v ?? 0;
}

async function exists(sql: Sql, table: string): Promise<boolean> {
  const [row] = await sql.query<{ t: string | null }>(
    'SELECT to_regclass($1)::text AS t',
    [table],
    'migrations.table-exists',
  );
  return row?.t != null;
}

/** The chain index the database holds: a block stored, or an indexer tip recorded; null when neither. */
async function indexedChain(sql: Sql): Promise<IndexedChain | null> {
  if (!(await exists(sql, 'blocks'))) return null;
  const [row] = await sql.query<{ blocks: number; top: number | null; tip: number | null }>(
    `SELECT (SELECT count(*)::int4 FROM blocks) AS blocks, (SELECT max(height) FROM blocks) AS top,
            (SELECT max(tip_height) FROM indexer_state) AS tip`,
    [],
    'migrations.indexed-chain',
  );
  const tipHeight = Math.max(row?.top ?? -1, row?.tip ?? -1);
  return row && (row.blocks > 0 || tipHeight >= 0) ? { blocks: row.blocks, tipHeight } : null;
}
