import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase } from '../open.js';
import type { Sql } from '../sql.js';

// This package's own tests sit below @explorer/testing in the package graph, so they open their databases
// here, through the public openDatabase (a named schema is created as migrations run).

/** The drivers the storage tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const drivers: Array<'pg' | 'pglite'> = process.env.TEST_DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];
if (!process.env.TEST_DATABASE_URL)
  console.log('[db] TEST_DATABASE_URL is not set: PostgreSQL tests skipped');

/**
 * A new embedded cluster, made once per process (initdb: 2–5 s of CPU) and kept as PGlite's dump: every
 * in-memory database of these tests starts from it (well under a second) with nothing in it yet.
 */
let emptyCluster: Promise<Blob> | null = null;
function emptySnapshot(): Promise<Blob> {
  emptyCluster ??= (async () => {
    const sql = await openDatabase({ dataDir: 'memory://', migrate: false });
    try {
      return await sql.snapshot!();
    } finally {
      await sql.close();
    }
  })();
  return emptyCluster;
}

/**
 * A fresh migrated database for the tests of one describe block, removed after them: in-memory PGlite, or a
 * schema of its own in TEST_DATABASE_URL.
 * @example const db = useDatabase(driver); it('…', async () => { await db().query('SELECT 1') })
 */
export function useDatabase(driver: 'pg' | 'pglite'): () => Sql {
  let sql: Sql | undefined;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  beforeAll(async () => {
    sql = await openDatabase(
      driver === 'pg'
        ? { url: process.env.TEST_DATABASE_URL, schema, poolSize: 4 }
        : { dataDir: 'memory://', snapshot: await emptySnapshot() },
    );
  });
  afterAll(async () => {
    if (driver === 'pg') await sql?.exec(`DROP SCHEMA ${schema} CASCADE`, 'test.drop-schema');
    await sql?.close();
  });
  return () => {
    if (!sql) throw new Error('the database opens in beforeAll');
    return sql;
  };
}

/**
 * A fresh database with nothing in it, for tests of migrations: in-memory PGlite, or a schema of its own in
 * TEST_DATABASE_URL; drop() removes it.
 * @example const db = await openEmptyDatabase('pg'); await migrate(db.sql, migrations); await db.drop()
 */
export async function openEmptyDatabase(
  driver: 'pg' | 'pglite',
): Promise<{ sql: Sql; drop(): Promise<void> }> {
  if (driver === 'pglite') {
    const sql = await openDatabase({ dataDir: 'memory://', migrate: false, snapshot: await emptySnapshot() });
    return { sql, drop: () => sql.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const sql = await openDatabase({ url: process.env.TEST_DATABASE_URL, schema, poolSize: 2, migrate: false });
  await sql.exec(`CREATE SCHEMA ${schema}`, 'test.create-schema');
  return {
    sql,
    async drop() {
      await sql.exec(`DROP SCHEMA ${schema} CASCADE`, 'test.drop-schema');
      await sql.close();
    },
  };
}
