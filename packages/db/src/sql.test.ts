import { describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import type { Migration } from './migrations/index.js';
import { DatabaseError, toDatabaseError } from './sql.js';
import { drivers, useDatabase } from './test-support/database.js';

describe.each(drivers)('Sql on %s', (driver) => {
  const sql = useDatabase(driver);

  it('normalises result types the same way on both drivers', async () => {
    const [row] = await sql().query(
      `SELECT 12::int8 AS i8, 7::int4 AS i4, (2^40)::int8 AS big, sum(x)::numeric AS total,
              '\\x0102ff'::bytea AS bytes, 1.5::float8 AS f, '{"a":[1,2]}'::json AS j, true AS b, NULL::text AS n
       FROM (VALUES (9007199254740991::int8), (10::int8)) t(x)`,
    );
    expect(row).toEqual({
      i8: 12,
      i4: 7,
      big: 2 ** 40,
      total: '9007199254741001',
      bytes: new Uint8Array([1, 2, 255]),
      f: 1.5,
      j: { a: [1, 2] },
      b: true,
      n: null,
    });
  });

  it('reads an int8 past 2^53 exactly, as a bigint, and writes bigints through both bulk paths', async () => {
    expect(await sql().query('SELECT 9007199254740993::int8 AS x, 42::int8 AS y')).toEqual([
      { x: 9007199254740993n, y: 42 },
    ]);
    const big = 210_000_000_000_000_000n;
    const rows = await sql().query<{ v: string }>(
      'SELECT (v + 1)::text AS v FROM unnest($1::int8[]) AS t(v)',
      [[big, 1n]],
    );
    expect(rows.map((r) => r.v)).toEqual(['210000000000000001', '2']);
  });

  it('passes array parameters for bulk statements', async () => {
    const rows = await sql().query<{ a: string; b: number }>(
      'SELECT * FROM unnest($1::text[], $2::int8[]) AS t(a, b) ORDER BY b',
      [
        ['x', 'y'],
        [2, 1],
      ],
    );
    expect(rows).toEqual([
      { a: 'y', b: 1 },
      { a: 'x', b: 2 },
    ]);
  });

  it('commits a transaction and rolls back a failed one', async () => {
    await sql().exec('CREATE TABLE tx_probe (v int PRIMARY KEY)');
    await sql().transaction(async (tx) => {
      await tx.query('INSERT INTO tx_probe VALUES (1)');
      await tx.transaction((inner) => inner.query('INSERT INTO tx_probe VALUES (2)'));
    });
    await expect(
      sql().transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES (3)');
        await tx.query('INSERT INTO tx_probe VALUES (1)', [], 'probe.duplicate');
      }),
    ).rejects.toThrow(DatabaseError);
    const rows = await sql().query<{ v: number }>('SELECT v FROM tx_probe ORDER BY v');
    expect(rows.map((r) => r.v)).toEqual([1, 2]);
  });

  it("passes the caller's own error out of a transaction unchanged, after rolling back", async () => {
    class Refused extends Error {}
    await sql().exec('CREATE TABLE tx_probe2 (v int PRIMARY KEY)');
    const err = await sql()
      .transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe2 VALUES (1)');
        throw new Refused('no');
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Refused);
    expect(await sql().query('SELECT v FROM tx_probe2')).toEqual([]);
  });

  it('appends rows with COPY where the driver offers it, escaping what COPY text needs', async () => {
    await sql().exec('CREATE TABLE copy_probe (id int4, s text, j json, b bool, f float8, n int8)');
    const rows = [
      [1, 'tab\there\nnew\\line\r', '{"a":"x\\ty"}', true, 1.5, 2 ** 52],
      [2, null, null, false, Number.POSITIVE_INFINITY, -1],
    ];
    await sql().transaction(async (tx) => {
      if (tx.copyRows) await tx.copyRows('copy_probe', ['id', 's', 'j', 'b', 'f', 'n'], rows, 'probe.copy');
      else
        await tx.query(
          'INSERT INTO copy_probe SELECT * FROM unnest($1::int4[], $2::text[], $3::json[], $4::bool[], $5::float8[], $6::int8[])',
          [0, 1, 2, 3, 4, 5].map((i) => rows.map((r) => r[i])),
        );
    });
    expect(await sql().query('SELECT * FROM copy_probe ORDER BY id')).toEqual([
      { id: 1, s: 'tab\there\nnew\\line\r', j: { a: 'x\ty' }, b: true, f: 1.5, n: 2 ** 52 },
      { id: 2, s: null, j: null, b: false, f: Number.POSITIVE_INFINITY, n: -1 },
    ]);
    if (driver === 'pg') expect(sql().copyRows).toBeTypeOf('function');
  });

  it('names the query and keeps the SQLSTATE in errors', async () => {
    const err = await sql()
      .query('SELECT * FROM no_such_table', [], 'probe.missing')
      .catch((e) => e);
    expect(err).toBeInstanceOf(DatabaseError);
    expect(err.queryName).toBe('probe.missing');
    expect(err.code).toBe('42P01');
    expect(err.message).toMatch(/^probe\.missing: /);
  });

  it('applies migrations once and records them', async () => {
    const again = await migrate(sql());
    expect(again.applied).toEqual([]);
    expect(again.current).toBeGreaterThanOrEqual(1);
    const tables = await sql().query<{ t: string }>(
      `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
    );
    expect(tables.map((r) => r.t)).toEqual(
      expect.arrayContaining([
        'blocks',
        'txs',
        'outputs',
        'inputs',
        'address_txs',
        'addresses',
        'indexer_state',
      ]),
    );
  });

  it('leaves the database as it was when a migration fails', async () => {
    const broken: Migration[] = [
      { version: 9001, name: 'ok', sql: 'CREATE TABLE m_ok (x int)' },
      { version: 9002, name: 'broken', sql: 'CREATE TABLE m_half (x int); SELECT no_such_function()' },
    ];
    await expect(migrate(sql(), broken)).rejects.toThrow(/migration\.9002\.broken/);
    const [half] = await sql().query(`SELECT to_regclass('m_half') AS r`);
    expect(half?.r).toBeNull();
    const recorded = await sql().query<{ version: number }>(
      'SELECT version FROM schema_migrations WHERE version > 9000 ORDER BY 1',
    );
    expect(recorded.map((r) => r.version)).toEqual([9001]);
  });

  it('serves keyset and prefix queries from indexes', async () => {
    const plan = async (q: string, params: unknown[]) => {
      // On empty tables any plan costs the same: ask whether an index can serve the order itself.
      await sql().query('SET enable_seqscan = off');
      await sql().query('SET enable_bitmapscan = off');
      const rows = await sql().query<{ 'QUERY PLAN': string }>(`EXPLAIN ${q}`, params);
      await sql().query('SET enable_seqscan = on');
      await sql().query('SET enable_bitmapscan = on');
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    expect(
      await plan(
        `SELECT tx_no FROM txs WHERE substring(txid FROM 1 FOR 8) >= $1 AND substring(txid FROM 1 FOR 8) < $2
         ORDER BY substring(txid FROM 1 FOR 8) LIMIT 10`,
        [Buffer.from('ab00000000000000', 'hex'), Buffer.from('ac00000000000000', 'hex')],
      ),
    ).toMatch(/Index (Only )?Scan using txs_txid/);
    expect(
      await plan(
        `SELECT * FROM address_txs WHERE address_id = $1 AND tx_no < $2 ORDER BY tx_no DESC LIMIT 21`,
        [1, 10 * 2 ** 24],
      ),
    ).toMatch(/Index Scan Backward using address_txs_pkey/);
  });
});

describe.skipIf(!drivers.includes('pg'))('prepared statements on PostgreSQL', () => {
  const probe = 'SELECT $1::int4 + 1 AS n /* prepared-probe */';
  const prepared = (tx: import('./sql.js').Sql) =>
    tx.query<{ n: number }>(
      `SELECT count(*)::int4 AS n FROM pg_prepared_statements WHERE statement LIKE '%prepared-probe%' AND statement NOT LIKE '%pg_prepared_statements%'`,
    );

  it('parses a named statement once per connection, and not at all when turned off', async () => {
    const { createPgSql } = await import('./drivers/pg.js');
    for (const [enabled, expected] of [
      [true, 1],
      [false, 0],
    ] as const) {
      const sql = createPgSql({
        connectionString: process.env.TEST_DATABASE_URL!,
        max: 1,
        preparedStatements: enabled,
      });
      try {
        const counts = await sql.transaction(async (tx) => {
          expect(await tx.query(probe, [1], 'probe.named')).toEqual([{ n: 2 }]);
          expect(await tx.query(probe, [41], 'probe.named')).toEqual([{ n: 42 }]);
          // Statements without a query name (one-offs) are never prepared.
          expect(await tx.query(`${probe} -- unnamed`, [1])).toEqual([{ n: 2 }]);
          return prepared(tx);
        });
        expect(counts).toEqual([{ n: expected }]);
      } finally {
        await sql.close();
      }
    }
  });
});

describe.skipIf(!drivers.includes('pg'))('prepared statements across a migration by another process', () => {
  const sql = useDatabase('pg');

  it('asks again on a fresh connection when a table changed under a prepared statement', async () => {
    const { createPgSql } = await import('./drivers/pg.js');
    const [{ schema } = { schema: '' }] = await sql().query<{ schema: string }>(
      'SELECT current_schema() AS schema',
    );
    await sql().exec('CREATE TABLE stale_probe (id int4 PRIMARY KEY); INSERT INTO stale_probe VALUES (1)');
    const reader = createPgSql({ connectionString: process.env.TEST_DATABASE_URL!, schema, max: 3 });
    const read = () => reader.query('SELECT * FROM stale_probe', [], 'probe.stale');
    try {
      // Every connection of the pool prepares the statement.
      await Promise.all([read(), read(), read()]);
      await sql().exec('ALTER TABLE stale_probe ADD COLUMN note text');
      expect(await read()).toEqual([{ id: 1, note: null }]);
      expect(await Promise.all([read(), read(), read()])).toEqual(Array(3).fill([{ id: 1, note: null }]));
      // Inside a transaction the statement fails, and its connection is not handed out again.
      await sql().exec('ALTER TABLE stale_probe ADD COLUMN more int4');
      const inTx = await reader
        .transaction((tx) => tx.query('SELECT * FROM stale_probe', [], 'probe.stale'))
        .catch((e) => e);
      if (inTx instanceof Error) expect(inTx).toMatchObject({ code: '0A000' });
      expect(await read()).toEqual([{ id: 1, note: null, more: null }]);
    } finally {
      await reader.close();
    }
  });
});

describe.skipIf(!drivers.includes('pg'))('the writer lock on PostgreSQL', () => {
  it('knows it is gone when the server ends its connection, and says so inside a transaction too', async () => {
    const { createPgSql } = await import('./drivers/pg.js');
    const sql = createPgSql({ connectionString: process.env.TEST_DATABASE_URL!, max: 3 });
    const key = 7_300_000 + (process.pid % 1000);
    try {
      const lock = await sql.tryAdvisoryLock(key);
      if (!lock) throw new Error('the lock was not free');
      expect(lock.held()).toBe(true);
      expect(await sql.transaction((tx) => lock.confirm(tx))).toBe(true);
      // A second session is refused while the first holds it.
      expect(await sql.tryAdvisoryLock(key)).toBeNull();
      const [holder] = await sql.query<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND objsubid = 2 AND granted`,
        [key],
      );
      expect(await sql.query('SELECT pg_terminate_backend($1) AS ok', [holder!.pid])).toEqual([{ ok: true }]);
      // The connection's 'error' event (which must not end the process) tells held(); the database tells confirm().
      await expect.poll(() => lock.held(), { timeout: 120_000 }).toBe(false);
      expect(await sql.transaction((tx) => lock.confirm(tx))).toBe(false);
      await lock.release();
      const again = await sql.tryAdvisoryLock(key);
      expect(again?.held()).toBe(true);
      await again?.release();
    } finally {
      await sql.close();
    }
  });
});

describe('DatabaseError.unavailable', () => {
  it('tells a database that cannot be reached or will not take a connection from a bad statement', () => {
    const of = (code: string | undefined) => new DatabaseError('x', code, 'q').unavailable;
    for (const code of [undefined, '08006', '08001', '57P01', '57P03', '53300', '3D000', '55000'])
      expect(of(code)).toBe(true);
    for (const code of ['42601', '23505', '57014', '40001', '42P01']) expect(of(code)).toBe(false);
  });
});

describe('DatabaseError.diskFull', () => {
  it('is a write PostgreSQL could not make for want of room, and nothing else', () => {
    const server = (code: string, message: string) => Object.assign(new Error(message), { code });
    const extend = toDatabaseError(
      server('53100', 'could not extend file "base/1/2": No space left on device'),
      'q',
    );
    expect(extend.diskFull).toBe(true);
    expect(extend.message).toMatch(
      /^out of disk space: the database server could not write \(q: could not extend/,
    );
    // A new connection on a full disk: the backend could not rebuild its relation-cache init file.
    const connect = toDatabaseError(server('XX000', 'could not write init file'), 'pool.connect');
    expect(connect.diskFull).toBe(true);
    expect(connect.message).toMatch(/^out of disk space: .*pool\.connect: could not write init file/);
    // Other internal errors are not about the disk.
    const other = toDatabaseError(server('XX000', 'cache lookup failed for relation 1'), 'q');
    expect(other.diskFull).toBe(false);
    expect(other.message).toBe('q: cache lookup failed for relation 1');
    expect(toDatabaseError(server('42P01', 'relation "x" does not exist'), 'q').diskFull).toBe(false);
  });
});
