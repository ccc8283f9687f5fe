import { connect } from 'node:net';
import { type ChainEvent, type EventDraft, type EventSink, silentLogger } from '@explorer/core';
import { appendEvents, createSqlStore } from '@explorer/db';
import { openTestDatabase, pgSkipReason, type TestDatabase, testDrivers, waitFor } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveExplorer } from '../test-support/serve-app.js';
import { createEventHub, type EventHub } from './hub.js';

const skip = pgSkipReason();
if (skip) console.log(`[event hub] ${skip}`);

const reorg = (n: number): EventDraft => ({
  type: 'reorg',
  data: { forkHeight: n, forkHash: null, removed: [], added: [] },
});

/** A sink that records what it was told. */
function recorder() {
  const events: ChainEvent[] = [];
  const resets: { reason: string; oldestId: string | null }[] = [];
  const closes: string[] = [];
  const sink: EventSink = {
    event: (e) => events.push(e),
    reset: (r) => resets.push(r),
    close: (c) => closes.push(c.code),
  };
  return { sink, events, resets, closes, ids: () => events.map((e) => Number(e.id)) };
}

const request = (after: string | null, owner = 'ip:test', maxConnections = 10) => ({
  subscription: { topics: new Set(['block', 'reorg'] as const), addresses: new Set<string>() },
  after,
  owner,
  maxConnections,
});

describe.each(testDrivers())('the event hub (%s)', (driver) => {
  let db: TestDatabase;
  let hub: EventHub;
  /** Appends n events in one transaction, as the indexer does, and returns them. */
  const append = (n: number, retain?: number) =>
    db.sql.transaction((tx) =>
      appendEvents(
        tx,
        Array.from({ length: n }, (_, i) => reorg(i)),
        { retain },
      ),
    );

  beforeAll(async () => {
    db = await openTestDatabase(driver);
    await append(3);
    // No live source: the log is polled every 50 ms, as an API-only process without Redis does.
    hub = createEventHub({ sql: db.sql, log: silentLogger, local: false, redis: null, pollMs: 50 });
    await hub.start();
  });
  afterAll(async () => {
    await hub?.close();
    await db?.drop();
  });

  it('delivers every event once, in id order, whatever arrives twice, late or not at all', async () => {
    const r = recorder();
    const handle = hub.subscribe(request(null), r.sink);
    const batch = await append(6);
    // Out of order, duplicated, and the first two never handed over: the gap is read from the log.
    hub.receive([batch[3]!, batch[2]!]);
    hub.receive([batch[5]!, batch[4]!, batch[3]!]);
    await waitFor('six events', async () => r.events.length >= 6);
    expect(r.ids()).toEqual(batch.map((e) => Number(e.id)));
    // Committed but never handed over at all: the poll of the log brings it.
    const [lost] = await append(1);
    await waitFor('the polled event', async () => r.events.length === 7);
    expect(r.events.at(-1)).toEqual(lost);
    handle.close();
  });

  it('resumes after an id with everything after it, then the live events, none twice', async () => {
    const first = await append(4);
    hub.receive(first);
    await waitFor('the hub to deliver', async () => hub.health().lastEventId === first.at(-1)!.id);
    const r = recorder();
    const after = first[0]!.id;
    hub.subscribe(request(after), r.sink);
    // Live events arrive while the replay runs: the replay comes first, then each live event once.
    const live = await append(3);
    hub.receive(live);
    hub.receive(live);
    await waitFor('the replay and live events', async () => r.events.length >= 6);
    await new Promise((res) => setTimeout(res, 100));
    expect(r.ids()).toEqual([...first.slice(1), ...live].map((e) => Number(e.id)));
    // A client resuming at an id this process has not delivered yet (another replica was ahead) gets nothing twice.
    const ahead = recorder();
    hub.subscribe(request(live[1]!.id), ahead.sink);
    await waitFor('the replay', async () => ahead.events.length >= 1);
    expect(ahead.ids()).toEqual([Number(live[2]!.id)]);
  });

  it('says when the log no longer holds what a client asks to resume from, then continues from its oldest', async () => {
    const kept = await append(5, 5);
    hub.receive(kept);
    const [{ id: oldest } = { id: '0' }] = await db.sql.query<{ id: string }>(
      'SELECT min(id)::text AS id FROM events',
    );
    expect(Number(oldest)).toBeGreaterThan(2);
    const r = recorder();
    hub.subscribe(request('1'), r.sink);
    await waitFor('the reset and the replay', async () => r.events.at(-1)?.id === kept.at(-1)!.id);
    expect(r.resets).toEqual([{ reason: expect.stringContaining('no longer holds'), oldestId: oldest }]);
    expect(r.ids()[0]).toBe(Number(oldest));
  });

  it('limits open subscriptions per caller and frees them on close', () => {
    const handles = [0, 1].map(() => hub.subscribe(request(null, 'ip:203.0.113.9', 2), recorder().sink));
    expect(() => hub.subscribe(request(null, 'ip:203.0.113.9', 2), recorder().sink)).toThrow(
      /too many open event subscriptions for this caller \(2 allowed/,
    );
    // Another caller is not affected.
    hub.subscribe(request(null, 'ip:203.0.113.10', 2), recorder().sink).close();
    handles[0]!.close();
    hub.subscribe(request(null, 'ip:203.0.113.9', 2), recorder().sink).close();
    handles[1]!.close();
  });
});

describe('a slow SSE consumer', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase('pglite');
  });
  afterAll(async () => db?.drop());

  it('is dropped once its queue passes the bound, and the server’s memory stays within it (measured)', async () => {
    const told = { sent: 0, dropped: 0 };
    const hub = createEventHub({
      sql: db.sql,
      log: silentLogger,
      local: true,
      redis: null,
      observe: { sent: () => told.sent++, dropped: () => told.dropped++ },
    });
    await hub.start();
    const maxQueueBytes = 256 * 1024;
    const served = await serveExplorer({
      store: createSqlStore(db.sql),
      log: silentLogger,
      events: hub,
      eventLimits: { maxQueueBytes, maxConnections: { anonymous: 100, key: 100 } },
    });
    const { port } = new URL(served.url);
    // 20 clients that send the request and never read a byte.
    const clients = Array.from({ length: 20 }, () => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => {});
      socket.write('GET /v1/events?topics=mempool HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
      socket.pause();
      return socket;
    });
    await waitFor('20 subscribers', async () => hub.health().subscribers === 20);
    // 64 KiB events, 2,000 of them: 125 MiB offered to each client, 2.5 GiB in all.
    const data = {
      added: [],
      removed: [],
      addedCount: 0,
      removedCount: 0,
      count: 0,
      vsize: 0,
      feeRateBuckets: [],
      fees: { padding: 'x'.repeat(64 * 1024) },
    };
    global.gc?.();
    const before = process.memoryUsage();
    let peak = 0;
    const sample = () => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.heapUsed + m.arrayBuffers - before.heapUsed - before.arrayBuffers);
    };
    for (let i = 1; i <= 2_000 && hub.health().subscribers > 0; i++) {
      hub.receive([
        { id: String(i), type: 'mempool', at: new Date().toISOString(), data } as unknown as ChainEvent,
      ]);
      // Let the hub deliver as events arrive, as the indexer's pace would.
      if (i % 20 === 0) {
        await new Promise((r) => setTimeout(r, 1));
        sample();
      }
    }
    await waitFor(
      'every slow client dropped',
      async () => {
        sample();
        return hub.health().subscribers === 0;
      },
      20_000,
    );
    // Each client may hold its queue bound plus one event and the socket's buffers; 20 of them, plus slack.
    const bound = 20 * (maxQueueBytes + 2 * 64 * 1024 + 64 * 1024) + 32 * 1024 * 1024;
    console.log(
      `[slow consumer] 20 clients dropped; heap + buffers grew at most ${(peak / 1048576).toFixed(1)} MiB (bound ${(bound / 1048576).toFixed(1)} MiB) while 2.5 GiB were offered`,
    );
    expect(peak).toBeLessThan(bound);
    // Each stream told the hub why it ended: the metrics count 20 slow consumers dropped.
    expect(told.dropped).toBe(20);
    expect(told.sent).toBeGreaterThanOrEqual(20);
    for (const s of clients) s.destroy();
    await served.close();
    await hub.close();
  });
});
