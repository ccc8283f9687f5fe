import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgSql, migrations, openDatabase, type Sql } from '@explorer/db';

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
    const sql = await openMigratedMemory();
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

/** Where the suite keeps the migrated embedded database its in-memory ones start from (the checkout's own). */
const SNAPSHOT_DIR = fileURLToPath(
  new URL('../../../node_modules/.cache/explorer-testing/', import.meta.url),
);
let snapshot: Promise<Blob | null> | null = null;

/** The file of the migrated snapshot under the schema's fingerprint (present or not). */
function snapshotFile(): string {
  const fingerprint = createHash('sha256').update(JSON.stringify(migrations)).digest('hex').slice(0, 16);
  return join(SNAPSHOT_DIR, `pglite-${fingerprint}.tar`);
}

/**
 * A fresh, migrated in-memory PGlite. A new PGlite runs initdb (2–5 s of CPU); so the first one of the suite
 * is kept as a snapshot, in memory and on disk under the schema's fingerprint, and the others start from it
 * (under a second), then migrate as usual. A snapshot that does not open (another PGlite) is made anew.
 */
async function openMigratedMemory(): Promise<Sql> {
  const file = snapshotFile();
  snapshot ??= Promise.resolve().then(() => {
    try {
      return new Blob([readFileSync(file)]);
    } catch {
      return null;
    }
  });
  const kept = await snapshot;
  if (kept) {
    const sql = await openDatabase({ dataDir: 'memory://', snapshot: kept }).catch(() => null);
    if (sql) return sql;
    rmSync(file, { force: true });
  }
  const sql = await openDatabase({ dataDir: 'memory://' });
  const made = sql.snapshot!();
  snapshot = made.catch(() => null);
  const blob = await made;
  // Written whole under another name first: another process of the suite may read it at any moment.
  mkdirSync(SNAPSHOT_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, new Uint8Array(await blob.arrayBuffer()));
  renameSync(partial, file);
  return sql;
}

/**
 * Makes `dataDir` an explorer data directory whose embedded database is already created and migrated, from
 * the suite's snapshot (made first if missing), so that a server started on it skips initdb: 2–5 s of CPU per
 * start. The cluster is the one a first start would make (same PGlite, same migrations; the server migrates it
 * as usual). Tests of a first start itself (the data directory created, initdb) leave theirs empty.
 * @example const dir = await seedDataDir(join(tmp, 'data')); startProcess([bin, 'start'], { EXPLORER_DATA_DIR: dir })
 */
export async function seedDataDir(dataDir: string): Promise<string> {
  const file = snapshotFile();
  if (!existsSync(file)) await (await openMigratedMemory()).close();
  const pgdata = join(dataDir, 'pgdata');
  if (existsSync(join(pgdata, 'PG_VERSION')))
    throw new Error(`seedDataDir: ${pgdata} already holds a database`);
  mkdirSync(pgdata, { recursive: true });
  // The snapshot is PGlite's dump: a tar of the cluster's files, named from the root of its own filesystem.
  const tar = spawnSync('tar', ['-xf', file, '-C', pgdata], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`seedDataDir: tar -xf failed: ${tar.stderr || tar.error?.message}`);
  return dataDir;
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
