import type { Sql } from '@explorer/db';
import { readMarketHealth, selectMarketSnapshotStats } from '@explorer/db';
import { openTestDatabase, type TestDatabase } from '@explorer/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDemoProvider } from './demo-provider.js';
import { MarketProviderError } from './errors.js';
import type { MarketProvider } from './provider.js';
import { createMarketRefresher } from './refresher.js';

const T0 = Date.parse('2025-03-01T12:00:00Z');

/** A provider whose next answers are scripted; counts its calls. */
function scripted(fail: () => MarketProviderError | null): MarketProvider & { calls: number } {
  const demo = createDemoProvider({ seed: 'refresher', clock: () => T0 });
  const p = {
    name: 'scripted',
    coin: 'demo',
    demo: false,
    calls: 0,
    async prices(vs: readonly string[]) {
      p.calls++;
      const err = fail();
      if (err) throw err;
      return demo.prices(vs);
    },
    async chart(vs: string, days: 1 | 7 | 30 | 90 | 365) {
      p.calls++;
      return demo.chart(vs, days);
    },
  };
  return p;
}

const waitFor = async (check: () => Promise<boolean>, ms = 120_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('market refresher', () => {
  let db: TestDatabase;
  let sql: Sql;

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    sql = db.sql;
  });
  beforeEach(async () => {
    await sql.query('DELETE FROM market_snapshots');
    await sql.query('DELETE FROM market_chart');
    await sql.query(
      'UPDATE market_health SET consecutive_failures = 0, next_attempt_at = NULL, last_error = NULL, last_error_at = NULL',
    );
  });
  afterAll(() => db.drop());

  it('backs off exponentially up to the cap, and resets after a success', async () => {
    let now = T0;
    let failing = true;
    const provider = scripted(() => (failing ? new MarketProviderError('http', 'HTTP 502') : null));
    const r = createMarketRefresher({
      sql,
      provider,
      vsCurrencies: ['usd'],
      intervalMs: 10_000,
      maxBackoffMs: 60_000,
      chartDays: [],
      clock: () => now,
    });
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await r.refreshOnce();
      waits.push(res.nextAttemptAt - now);
      now += 1_000;
    }
    expect(waits).toEqual([10_000, 20_000, 40_000, 60_000, 60_000]);
    expect((await readMarketHealth(sql)).consecutiveFailures).toBe(5);
    failing = false;
    const ok = await r.refreshOnce();
    expect(ok).toMatchObject({ ok: true, consecutiveFailures: 0, nextAttemptAt: now + 10_000, charts: 0 });
    const h = await readMarketHealth(sql);
    expect(h).toMatchObject({ consecutiveFailures: 0, lastAttemptOk: true, lastError: 'HTTP 502' });
  });

  it('deletes snapshots past the retention', async () => {
    let now = T0;
    const r = createMarketRefresher({
      sql,
      provider: scripted(() => null),
      vsCurrencies: ['usd', 'eur'],
      chartDays: [],
      retentionMs: 3_600_000,
      clock: () => now,
    });
    await r.refreshOnce();
    now += 1_800_000;
    await r.refreshOnce();
    expect((await selectMarketSnapshotStats(sql)).count).toBe(4);
    now += 1_900_000;
    await r.refreshOnce();
    expect(await selectMarketSnapshotStats(sql)).toEqual({ count: 4, oldest: T0 + 1_800_000, newest: now });
  });

  it('runs on its own schedule once started, and stops', async () => {
    const provider = scripted(() => null);
    const r = createMarketRefresher({ sql, provider, vsCurrencies: ['usd'], intervalMs: 50, chartDays: [1] });
    await r.start();
    await waitFor(async () => (await selectMarketSnapshotStats(sql)).count >= 3);
    await r.stop();
    const calls = provider.calls;
    await new Promise((res) => setTimeout(res, 150));
    expect(provider.calls).toBe(calls);
  });

  it('after a restart, honours the next attempt recorded before it (e.g. a Retry-After)', async () => {
    const limited = scripted(() => new MarketProviderError('rate-limited', '429', { retryAfterMs: 60_000 }));
    const first = createMarketRefresher({ sql, provider: limited, vsCurrencies: ['usd'], intervalMs: 50 });
    // The wait is counted from when the attempt finished, which is no earlier than t0.
    const t0 = Date.now();
    expect((await first.refreshOnce()).nextAttemptAt).toBeGreaterThanOrEqual(t0 + 60_000);
    const provider = scripted(() => null);
    const second = createMarketRefresher({ sql, provider, vsCurrencies: ['usd'], intervalMs: 50 });
    await second.start();
    await new Promise((res) => setTimeout(res, 300));
    await second.stop();
    expect(provider.calls).toBe(0);
  });

  it('stands by while another refresher holds the lock', async () => {
    const provider = scripted(() => null);
    const locked: Sql = { ...sql, tryAdvisoryLock: async () => null };
    const r = createMarketRefresher({ sql: locked, provider, vsCurrencies: ['usd'], intervalMs: 50 });
    await r.start();
    await new Promise((res) => setTimeout(res, 200));
    await r.stop();
    expect(provider.calls).toBe(0);
  });
});
