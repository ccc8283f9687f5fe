import { randomBytes } from 'node:crypto';
import { createPgSql } from './drivers/pg.js';
import { openDatabase } from './open.js';
import type { Sql } from './sql.js';

/** A database opened for one test file, with the function that removes it. */
export interface TestDatabase {
  sql: Sql;
  driver: 'pg' | 'pglite';
  /** Connection settings another process can use to reach the same database. */
  url?: string;
  schema?: string;
  drop(): Promise<void>;
}

/** The drivers to run storage tests on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDrivers(): Array<'pg' | 'pglite'> {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];
}

/** Why the PostgreSQL variant of a test is skipped, or null when it runs. */
export function pgSkipReason(): string | null {
  return process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL is not set: PostgreSQL tests skipped';
}

/**
 * Opens a fresh, migrated database: an in-memory PGlite, or a new schema in TEST_DATABASE_URL.
 * @example const db = await openTestDatabase('pg'); …; await db.drop()
 */
export async function openTestDatabase(
  driver: 'pg' | 'pglite',
  opts: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  if (driver === 'pglite') {
    const sql = await openDatabase({ dataDir: 'memory://', migrate: opts.migrate });
    return { sql, driver, drop: () => sql.close() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = createPgSql({ connectionString: url, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`, [], 'test.create-schema');
  const sql = await openDatabase({ url, schema, poolSize: 4, migrate: opts.migrate });
  return {
    sql,
    driver,
    url,
    schema,
    async drop() {
      await sql.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`, [], 'test.drop-schema');
      await admin.close();
    },
  };
}
