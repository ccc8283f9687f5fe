import { createSqlStore, openDatabase, type Sql } from '@explorer/db';
import { getJson, openTestDatabase, pgSkipReason, type TestDatabase, waitFor } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit/index.js';
import { captureLog } from './test-support/log-capture.js';
import { serveExplorer } from './test-support/serve-app.js';
import { startTcpProxy, type TcpProxy } from './test-support/tcp-proxy.js';

const skip = pgSkipReason();
if (skip) console.log(`[hardening-pg.test] ${skip}`);

describe.skipIf(skip !== null)('PostgreSQL failure modes (needs TEST_DATABASE_URL)', () => {
  let db: TestDatabase;
  const opened: Sql[] = [];
  const closers: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    db = await openTestDatabase('pg');
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    for (const sql of opened) await sql.close().catch(() => {});
    await db?.drop();
  });

  it('turns a query past the statement timeout into a 503 envelope, and the pool serves afterwards', async () => {
    // One connection, so "the pool works afterwards" means the very connection that timed out.
    const sql = await openDatabase({
      url: db.url,
      schema: db.schema,
      poolSize: 1,
      statementTimeoutMs: 1_000,
      migrate: false,
    });
    opened.push(sql);
    // Open the one connection first, so the timed request measures the statement, not a connect.
    await sql.query('SELECT 1', [], 'test.warm-up');
    const base = createSqlStore(sql);
    let slow = true;
    const store = new Proxy(base, {
      get(target, prop, receiver) {
        if (prop === 'listBlocks' && slow) {
          return async () => {
            slow = false;
            // Far past both the statement timeout and the bound below: only a cancel ends it in time.
            await sql.query('SELECT pg_sleep(10)', [], 'test.sleep');
            return [];
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    const { log, entries } = captureLog('info');
    const server = await serveExplorer({ store, log });
    closers.push(server.close);
    const started = performance.now();
    const timedOut = await getJson(`${server.url}/v1/blocks`);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(timedOut.status).toBe(503);
    expect(timedOut.body).toMatchObject({
      ok: false,
      error: 'the query took too long and was cancelled; retry later',
      meta: expect.any(Object),
    });
    expect(Number(timedOut.headers.get('retry-after'))).toBeGreaterThan(0);
    const after = await getJson(`${server.url}/v1/blocks`);
    expect(after.status).toBe(200);
    expect(after.body.ok).toBe(true);
    expect(await sql.query<{ one: number }>('SELECT 1 AS one', [], 'test.one')).toEqual([{ one: 1 }]);
    expect(entries().some((e) => e.msg === 'request failed')).toBe(true);
  });

  it('answers 503 envelopes while the database is unreachable, reports it in /v1/status, and recovers without a restart', async () => {
    const target = new URL(db.url!);
    const proxy: TcpProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    closers.push(proxy.stop);
    const viaProxy = new URL(db.url!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const sql = await openDatabase({
      url: viaProxy.toString(),
      schema: db.schema,
      poolSize: 2,
      connectionTimeoutMs: 1_000,
      statementTimeoutMs: 1_000,
      migrate: false,
    });
    opened.push(sql);
    const { log } = captureLog('info');
    const rateLimiter = createRateLimiter({
      policy: { windowSeconds: 60, anonymous: 1000, key: 1000, tiers: {} },
    });
    const server = await serveExplorer({ store: createSqlStore(sql), log, rateLimiter });
    closers.push(server.close);

    // A URL of its own: /v1/blocks answered within the last second would be served from the response cache.
    expect((await getJson(`${server.url}/v1/blocks?limit=1`)).status).toBe(200);
    await proxy.stop();
    for (const path of ['/v1/blocks', '/v1/txs', '/v1/blocks/1']) {
      const down = await getJson(`${server.url}${path}`);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ ok: false, error: 'the database is unavailable; retry shortly' });
      expect(down.headers.get('retry-after')).toBeTruthy();
      expect(down.headers.get('x-ratelimit-limit')).toBe('1000');
    }
    const status = await getJson(`${server.url}/v1/status`);
    expect(status.status).toBe(200);
    expect(status.body.status.healthy).toBe(false);
    expect(status.body.status.degraded).toContain('database');
    expect(status.body.status.database.ok).toBe(false);

    await proxy.start();
    await waitFor(
      'the API to read the database again',
      async () => (await getJson(`${server.url}/v1/blocks`)).status === 200,
    );
    const healthy = await getJson(`${server.url}/v1/status`);
    expect(healthy.body.status.database.ok).toBe(true);
    expect(healthy.body.status.degraded).not.toContain('database');
  });
});
