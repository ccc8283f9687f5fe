import { migrations as allMigrations, type Migration } from './migrations/index.js';
import type { Sql } from './sql.js';

// Serialises concurrent starts (several API replicas, an indexer) so each migration runs once.
const MIGRATION_LOCK = 7_301_001;

/** What a migration run did. */
export interface MigrateResult {
  applied: number[];
  current: number;
}

/**
 * Applies every migration not yet recorded, each in its own transaction together with its record,
 * so a failing migration leaves the database exactly as it was. Safe to call on every start.
 * @example await migrate(sql)
 */
export async function migrate(
  sql: Sql,
  migrations: readonly Migration[] = allMigrations,
): Promise<MigrateResult> {
  await sql.query(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    [],
    'migrations.create-table',
  );
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    const done = await sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK], 'migrations.lock');
      const seen = await tx.query(
        'SELECT 1 FROM schema_migrations WHERE version = $1',
        [m.version],
        'migrations.seen',
      );
      if (seen.length > 0) return false;
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
  const [row] = await sql.query<{ v: number | null }>(
    'SELECT max(version) AS v FROM schema_migrations',
    [],
    'migrations.current',
  );
  return { applied, current: row?.v ?? 0 };
}
