import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, pendingMigrations, RebuildRequiredError } from './migrate.js';
import { migrations } from './migrations/index.js';
import { openDatabase } from './open.js';
import type { Sql } from './sql.js';
import { drivers, openEmptyDatabase } from './test-support/database.js';

// The schema of a v1 deployment: everything before storage v2.
const v1 = migrations.filter((m) => m.version <= 9);
const latest = Math.max(...migrations.map((m) => m.version));

/** A v1 index of heights 0–2 (one transaction each), with what an operator added beside it. */
async function seedV1(sql: Sql): Promise<void> {
  await sql.exec(`
    INSERT INTO blocks (height, hash, prev_hash, time, median_time, day, version, merkle_root, bits, nonce,
      difficulty, chainwork, size, tx_count, input_count, output_count, subsidy, emission, fees, reward,
      value_out, op_return_value, pool_id, coinbase_hex, coinbase_tag, has_certificate, cum_tx_count,
      cum_emitted, cum_fees, cum_op_return, raw)
    SELECT h, md5(h::text), md5((h - 1)::text), 1700000000 + h, 1700000000 + h, 19675, 1, md5('m'), '1d00ffff', 0,
      1, '00', 200, 1, 1, 1, 5000, 5000, 0, 5000, 5000, 0, 'unknown', '00', '', false, h + 1, 5000 * (h + 1), 0, 0,
      '{}'
    FROM generate_series(0, 2) h;
    INSERT INTO txs (txid, block_height, block_index, block_time, version, locktime, size, vsize, weight,
      input_count, output_count, value_in, value_out, fee, is_coinbase, type, raw)
    SELECT md5('tx' || h), h, 0, 1700000000 + h, 1, 0, 100, 100, 400, 1, 1, 0, 5000, 0, true, 'coinbase', '{}'
    FROM generate_series(0, 2) h;
    UPDATE indexer_state SET tip_height = 2, tip_hash = md5('2'), tx_tip_height = 2, status = 'synced';
    INSERT INTO api_keys (id, name, key_hash) VALUES ('abcdefghij', 'dashboard', repeat('a', 64));
    INSERT INTO webhooks (id, url, topics, secret) VALUES ('wh1', 'https://example.org/hook', '{block}', 's');
    INSERT INTO events (topic, payload) VALUES ('block', '{"height":2}');
    INSERT INTO webhook_deliveries (webhook_id, event_id, topic, body) VALUES ('wh1', 1, 'block', '{}');
    INSERT INTO pools (id, name, tags, addresses) VALUES ('p1', 'Pool One', '{}', '{}');
  `);
}

const count = async (sql: Sql, table: string) =>
  (await sql.query<{ n: number }>(`SELECT count(*)::int4 AS n FROM ${table}`))[0]!.n;
const columns = async (sql: Sql, table: string) =>
  (
    await sql.query<{ c: string }>(
      `SELECT column_name AS c FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
      [table],
    )
  ).map((r) => r.c);
const version = async (sql: Sql) =>
  (await sql.query<{ v: number }>('SELECT max(version) AS v FROM schema_migrations'))[0]!.v;

describe.each(drivers)('upgrading a v1 index on %s', (driver) => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(() => drop?.());
  const open = async () => {
    const db = await openEmptyDatabase(driver);
    drop = db.drop;
    return db.sql;
  };

  it('refuses the rebuilding migration on a database that holds blocks, and changes nothing', async () => {
    const sql = await open();
    await migrate(sql, v1);
    await seedV1(sql);

    const plan = await pendingMigrations(sql);
    expect(plan).toMatchObject({ current: 9, rebuildsIndex: true, index: { blocks: 3, tipHeight: 2 } });
    expect(plan.pending.map((m) => m.version)).toEqual(
      migrations.filter((m) => m.version > 9).map((m) => m.version),
    );

    const err = await migrate(sql).catch((e) => e);
    expect(err).toBeInstanceOf(RebuildRequiredError);
    expect(err).toMatchObject({ migration: { version: 10, name: 'storage-v2' }, current: 9 });
    expect(err.message).toMatch(
      /^the database holds an index of 3 blocks \(up to height 2\), and schema version 10 \(storage-v2\) rebuilds the chain index from the node: .*keeps API keys, webhooks and their deliveries, the events log, market data, and pool and label definitions\. Nothing of it was applied \(schema at version 9\); to rebuild, run `explorer-server migrate --rebuild`/,
    );
    expect(err.message).not.toContain('\n');

    expect(await version(sql)).toBe(9);
    expect(await count(sql, 'blocks')).toBe(3);
    expect(await count(sql, 'txs')).toBe(3);
    expect(await columns(sql, 'txs')).toContain('block_height');
    expect((await sql.query(`SELECT to_regclass('utxos') AS t`))[0]).toEqual({ t: null });
    expect((await sql.query('SELECT tip_height FROM indexer_state'))[0]).toEqual({ tip_height: 2 });
    // Asking again finds the same: the refusal left nothing behind.
    expect(await pendingMigrations(sql)).toEqual(plan);
  });

  it('rebuilds when told to: the new layout, empty, the tip reset, and what is not the index kept', async () => {
    const sql = await open();
    await migrate(sql, v1);
    await seedV1(sql);

    const result = await migrate(sql, migrations, { rebuild: true });
    expect(result.applied).toEqual(migrations.filter((m) => m.version > 9).map((m) => m.version));
    expect(result.current).toBe(latest);

    expect(await columns(sql, 'txs')).toContain('tx_no');
    expect(await columns(sql, 'txs')).not.toContain('block_height');
    for (const table of [
      'blocks',
      'block_certificates',
      'txs',
      'outputs',
      'utxos',
      'inputs',
      'address_txs',
    ]) {
      expect(await count(sql, table)).toBe(0);
    }
    for (const table of ['addresses', 'miner_stats', 'pool_stats', 'daily_stats']) {
      expect(await count(sql, table)).toBe(0);
    }
    expect((await sql.query('SELECT tip_height, tx_tip_height FROM indexer_state'))[0]).toEqual({
      tip_height: -1,
      tx_tip_height: -1,
    });
    for (const table of ['api_keys', 'webhooks', 'webhook_deliveries', 'events', 'pools']) {
      expect(await count(sql, table)).toBe(1);
    }
    expect(await pendingMigrations(sql)).toMatchObject({ pending: [], rebuildsIndex: false, index: null });
  });

  it('migrates a fresh database all the way without asking', async () => {
    const sql = await open();
    const plan = await pendingMigrations(sql);
    expect(plan).toMatchObject({ current: 0, rebuildsIndex: true, index: null });
    expect(plan.pending).toHaveLength(migrations.length);
    // Reading the plan created nothing.
    expect((await sql.query(`SELECT to_regclass('schema_migrations') AS t`))[0]).toEqual({ t: null });

    const result = await migrate(sql);
    expect(result.applied).toEqual(migrations.map((m) => m.version));
    expect(await columns(sql, 'txs')).toContain('tx_no');
  });

  it('migrates a v1 database whose index is still empty without asking', async () => {
    const sql = await open();
    await migrate(sql, v1);
    expect((await pendingMigrations(sql)).index).toBeNull();
    expect((await migrate(sql)).current).toBe(latest);
  });
});

describe('opening a database whose index is a simulated chain (the demo)', () => {
  it('rebuilds a v1 index without asking when opened with rebuild, and refuses without', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'explorer-demo-upgrade-'));
    try {
      const seeded = await openDatabase({ dataDir, migrate: false });
      await migrate(seeded, v1);
      await seedV1(seeded);
      await seeded.close();
      await expect(openDatabase({ dataDir })).rejects.toThrow(RebuildRequiredError);
      const sql = await openDatabase({ dataDir, rebuild: true });
      try {
        expect(await version(sql)).toBe(latest);
        expect(await count(sql, 'blocks')).toBe(0);
        expect(await count(sql, 'api_keys')).toBe(1);
      } finally {
        await sql.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a migration longer than the statement timeout (pg)', () => {
  it('runs to its end: a migration takes as long as the tables it fills, not a request’s time', async () => {
    const schema = `t_slow_${process.pid}`;
    const sql = await openDatabase({
      url: process.env.TEST_DATABASE_URL,
      schema,
      poolSize: 1,
      statementTimeoutMs: 100,
      migrate: false,
    });
    try {
      await sql.exec(`CREATE SCHEMA ${schema}`, 'test.create-schema');
      // The connection's own statements are still bounded: the timeout is lifted for the migration alone.
      await expect(sql.exec('SELECT pg_sleep(0.3)', 'test.sleep')).rejects.toThrow(/statement timeout/);
      const slow = [{ version: 1, name: 'slow', sql: 'SELECT pg_sleep(0.3); CREATE TABLE filled (n int);' }];
      expect(await migrate(sql, slow)).toEqual({ applied: [1], current: 1 });
      expect(await columns(sql, 'filled')).toEqual(['n']);
    } finally {
      await sql.exec(`DROP SCHEMA ${schema} CASCADE`, 'test.drop-schema');
      await sql.close();
    }
  });
});
