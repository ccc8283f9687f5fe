import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNNAMED_QUERY } from './observe.js';
import { openDatabase } from './open.js';
import { DatabaseError, type Sql } from './sql.js';
import { drivers } from './test-support/database.js';

describe.each(drivers)('observed statements on %s', (driver) => {
  const seen: { name: string; seconds: number }[] = [];
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let sql: Sql;

  beforeAll(async () => {
    const onQuery = (name: string, seconds: number) => seen.push({ name, seconds });
    sql = await openDatabase(
      driver === 'pg'
        ? { url: process.env.TEST_DATABASE_URL, schema, poolSize: 2, onQuery }
        : { dataDir: 'memory://', onQuery },
    );
  });
  afterAll(async () => {
    if (driver === 'pg') await sql?.exec(`DROP SCHEMA ${schema} CASCADE`, 'test.drop-schema');
    await sql?.close();
  });

  const named = (name: string) => seen.filter((s) => s.name === name);

  it('times every statement under its query name, inside transactions and when it fails', async () => {
    // The migrations that opened the database were timed too.
    expect(seen.some((s) => s.name.startsWith('migration.'))).toBe(true);
    await sql.query('SELECT 1 AS one', [], 'test.one');
    await sql.query('SELECT 2 AS two');
    await sql.transaction(async (tx) => {
      await tx.query('SELECT 3 AS three', [], 'test.in-transaction');
      await tx.transaction((inner) => inner.query('SELECT 4 AS four', [], 'test.nested'));
    });
    const err = await sql.query('SELECT nope', [], 'test.fails').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseError);
    expect((err as DatabaseError).queryName).toBe('test.fails');
    for (const name of ['test.one', UNNAMED_QUERY, 'test.in-transaction', 'test.nested', 'test.fails']) {
      expect(named(name).length, name).toBeGreaterThan(0);
      expect(named(name).every((s) => s.seconds >= 0 && s.seconds < 600)).toBe(true);
    }
  });

  it.runIf(driver === 'pg')('reports the pool: connections in use, idle, and callers waiting', async () => {
    /** Polls until `done` holds (progress, not a fixed wait). */
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((r) => setTimeout(r, 10));
    };
    // Both connections held by transactions that wait on the test, then two statements that must wait.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const holders = [0, 1].map(() => sql.transaction(() => gate));
    await until(() => sql.poolStats!().idle === 0 && sql.poolStats!().total === 2);
    const waiting = [0, 1].map(() => sql.query('SELECT 1 AS one', [], 'test.waited'));
    await until(() => sql.poolStats!().waiting === 2);
    expect(sql.poolStats!()).toEqual({ total: 2, idle: 0, waiting: 2 });
    open();
    await Promise.all([...holders, ...waiting]);
    expect(sql.poolStats!()).toEqual({ total: 2, idle: 2, waiting: 0 });
    expect(named('test.waited')).toHaveLength(2);
  });

  it.runIf(driver === 'pglite')('has no pool to report', () => {
    expect(sql.poolStats).toBeUndefined();
  });
});
