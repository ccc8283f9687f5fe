import { randomBytes } from 'node:crypto';
import { createPgSql, openDatabase, type Sql } from '@explorer/db';

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
export async function openTestDatabase(driver: 'pg' | 'pglite'): Promise<TestDatabase> {
  if (driver === 'pglite') {
    const sql = await openDatabase({ dataDir: 'memory://' });
    return { sql, driver, drop: () => sql.close() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const sql = await openDatabase({ url, schema, poolSize: 4 });
  return {
    sql,
    driver,
    url,
    schema,
    async drop() {
      await sql.exec(`DROP SCHEMA ${schema} CASCADE`, 'test.drop-schema');
      await sql.close();
    },
  };
}

/**
 * A PostgreSQL database of its own next to `baseUrl`'s, so a server process runs exactly as deployed; drop()
 * removes it, connections and all.
 * @example const db = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'load'); db.url; await db.drop()
 */
export async function scratchDatabase(
  baseUrl: string,
  purpose: string,
): Promise<{ url: string; name: string; admin: Sql; drop(): Promise<void> }> {
  const name = `explorer_${purpose}_${process.pid}`;
  const admin = createPgSql({ connectionString: baseUrl, max: 2 });
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    admin,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
