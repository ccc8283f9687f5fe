import { createPgSql, createSqlStore } from '@explorer/db';
import { openTestDatabase, pgSkipReason, type TestDatabase, waitFor } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExposition, sampleValue } from '../test-support/metrics-text.js';
import { createMetrics } from './metrics.js';

const skip = pgSkipReason();
if (skip) console.log(`[pool-gauges-pg.test] ${skip}`);

/** The pool test databases open: every connection of it is opened first, so the scrape finds them idle. */
const POOL_SIZE = 4;

describe.skipIf(skip !== null)('the pool gauges on PostgreSQL (needs TEST_DATABASE_URL)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase('pg');
  });
  afterAll(async () => {
    await db?.drop();
  });

  const scraper = () => {
    const metrics = createMetrics({ version: 'test' });
    metrics.watchPool('primary', db.sql);
    // What a runtime's scrape reads from the database too: the indexer state, tip, mempool and outbox.
    metrics.watch({ store: createSqlStore(db.sql), sql: db.sql });
    return async () => {
      const m = parseExposition(await metrics.registry.metrics());
      return {
        waiting: sampleValue(m, 'explorer_db_pool_waiting', { pool: 'primary' }),
        inUse: sampleValue(m, 'explorer_db_pool_connections', { pool: 'primary', state: 'in_use' }),
        idle: sampleValue(m, 'explorer_db_pool_connections', { pool: 'primary', state: 'idle' }),
      };
    };
  };
  const sleepers = (n: number, seconds: number) =>
    Array.from({ length: n }, () => db.sql.query(`SELECT pg_sleep(${seconds})`, [], 'test.sleep'));

  it('read an idle pool as idle: the scrape’s own queries are not callers waiting', async () => {
    await Promise.all(sleepers(POOL_SIZE, 0.05));
    const scrape = scraper();
    // Each scrape of a fresh registry reads the database anew (nothing cached between them).
    for (let i = 0; i < 3; i++) {
      expect(await scrape()).toEqual({ waiting: 0, inUse: 0, idle: POOL_SIZE });
    }
  });

  it('count the callers that wait for a busy pool, and the connections in use', async () => {
    // Every connection busy until this test lets go (an advisory lock another session holds), and two more
    // callers queued behind them: however slow the machine, they are still waiting when the scrape reads.
    const holder = createPgSql({ connectionString: db.url!, max: 1 });
    const LOCK = 7_301_777;
    await holder.query('SELECT pg_advisory_lock($1)', [LOCK], 'test.hold');
    const busy = Array.from({ length: POOL_SIZE + 2 }, () =>
      db.sql.query('SELECT pg_advisory_lock($1), pg_advisory_unlock($1)', [LOCK], 'test.wait'),
    );
    try {
      await waitFor('every connection to be taken', async () => {
        const stats = db.sql.poolStats!();
        return stats.total - stats.idle === POOL_SIZE && stats.waiting === 2;
      });
      // The gauges are read as the scrape begins (prom-client starts every collector at once, the pool's
      // first); the scrape's own queries then wait behind the held connections until they are let go.
      const reading = scraper()();
      await holder.query('SELECT pg_advisory_unlock($1)', [LOCK], 'test.release');
      expect(await reading).toEqual({ waiting: 2, inUse: POOL_SIZE, idle: 0 });
    } finally {
      await holder.query('SELECT pg_advisory_unlock_all()', [], 'test.release-all');
      await Promise.all(busy);
      await holder.close();
    }
  });
});
