import type { ChainEvent, EventDraft } from '@explorer/core';
import { silentLogger } from '@explorer/core';
import { appendEvents, createSqlStore } from '@explorer/db';
import { openTestDatabase, type TestDatabase, waitFor } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { serveExplorer } from '../test-support/serve-app.js';
import { createEventHub, type EventHub } from './hub.js';
import { attachWebSocket, CLOSE_CODES } from './websocket.js';

/** Drafts as the indexer writes them (only what the endpoint reads is filled in). */
const block = (height: number) => ({ type: 'block', data: { height } }) as unknown as EventDraft;
const activity = (height: number, addresses: string[]) =>
  ({
    type: 'address',
    data: {
      confirmed: true,
      height,
      blockHash: null,
      activity: addresses.map((address) => ({
        address,
        txids: [],
        received: '1',
        sent: '0',
        balance: '1',
        mempoolDelta: null,
      })),
    },
  }) as unknown as EventDraft;

const A = `prl1p${'a'.repeat(58)}`;
const B = `prl1p${'b'.repeat(58)}`;

/** A socket that keeps what it receives. */
async function connect(url: string, headers: Record<string, string> = {}) {
  const messages: Record<string, any>[] = [];
  const ws = new WebSocket(url, { headers });
  ws.on('message', (m) => messages.push(JSON.parse(String(m))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = (type: string) =>
    waitFor(`a ${type} message`, async () => messages.find((m) => m.type === type && !m.seen)).then((m) => {
      m.seen = true;
      return m;
    });
  return {
    ws,
    messages,
    closed,
    next,
    events: () => messages.filter((m) => m.type === 'event').map((m) => m.event),
  };
}

describe('the WebSocket endpoint', () => {
  let db: TestDatabase;
  let hub: EventHub;
  let served: Awaited<ReturnType<typeof serveExplorer>>;
  let sockets: { close(): Promise<void> };
  let ws: string;
  let id = 0;
  /** What the hub told its metrics hook. */
  const told = { sent: 0, dropped: 0 };
  /** Writes events to the log, as the indexer does, and hands them to the hub. */
  const emit = async (...drafts: EventDraft[]) => {
    const events = await db.sql.transaction((tx) => appendEvents(tx, drafts));
    hub.receive(events);
    return events;
  };

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    hub = createEventHub({
      sql: db.sql,
      log: silentLogger,
      local: true,
      redis: null,
      observe: { sent: () => told.sent++, dropped: () => told.dropped++ },
    });
    await hub.start();
    served = await serveExplorer({
      store: createSqlStore(db.sql),
      log: silentLogger,
      events: hub,
      eventLimits: { maxConnections: { anonymous: 3, key: 3 }, maxAddresses: { anonymous: 2, key: 2 } },
    });
    sockets = attachWebSocket(served.server, {
      admit: served.api.admitEvents,
      clientAddress: (req) => req.socket.remoteAddress ?? null,
      log: silentLogger,
      maxQueueBytes: 64 * 1024,
      keepAliveMs: 15_000,
    });
    ws = `${served.url.replace('http', 'ws')}/v1/ws`;
  });
  afterAll(async () => {
    await sockets?.close();
    await hub?.close();
    await served?.close();
    await db?.drop();
  });

  it('subscribes and unsubscribes by message, answers pings, and says what it did not understand', async () => {
    const c = await connect(ws);
    expect(await c.next('welcome')).toMatchObject({ topics: [], addresses: [] });
    await emit(block(++id));
    c.ws.send(JSON.stringify({ type: 'subscribe', topics: ['block'] }));
    expect(await c.next('subscribed')).toMatchObject({ topics: ['block'], addresses: [] });
    const [seen] = await emit(block(++id));
    await waitFor('the block', async () => c.events().length === 1);
    expect(c.events()[0].id).toBe(seen!.id);
    c.ws.send(JSON.stringify({ type: 'subscribe', addresses: [A] }));
    expect(await c.next('subscribed')).toMatchObject({ topics: ['block', 'address'], addresses: [A] });
    // Only the tracked address's part of an address event arrives.
    await emit(activity(++id, [A, B]));
    await waitFor('the activity', async () => c.events().length === 2);
    expect(c.events()[1].data.activity.map((a: { address: string }) => a.address)).toEqual([A]);
    c.ws.send(JSON.stringify({ type: 'unsubscribe', topics: ['block'], addresses: [A] }));
    expect(await c.next('unsubscribed')).toMatchObject({ topics: [], addresses: [] });
    await emit(block(++id), activity(++id, [A]));
    c.ws.send(JSON.stringify({ type: 'ping' }));
    await c.next('pong');
    expect(c.events()).toHaveLength(2);
    c.ws.send('not json');
    expect((await c.next('error')).error).toMatch(/JSON/);
    c.ws.send(JSON.stringify({ type: 'subscribe', topics: ['blocks'] }));
    expect((await c.next('error')).error).toMatch(/topics must be/);
    c.ws.send(JSON.stringify({ type: 'subscribe', addresses: [A, B, `prl1p${'c'.repeat(58)}`] }));
    expect((await c.next('error')).error).toMatch(/at most 2 addresses/);
    c.ws.close(CLOSE_CODES.normal);
    expect((await c.closed).code).toBe(CLOSE_CODES.normal);
  });

  it('opens with the URL’s subscription and resumes after lastEventId', async () => {
    const [a, b] = await emit(block(++id), block(++id));
    const c = await connect(`${ws}?topics=block&lastEventId=${a!.id}`);
    expect(await c.next('welcome')).toMatchObject({ topics: ['block'], addresses: [] });
    const [d] = await emit(activity(++id, [A]), block(++id)).then((e) => e.slice(1));
    await waitFor('the replayed and the new block', async () => c.events().length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(c.events().map((e) => e.id)).toEqual([b!.id, d!.id]);
    c.ws.close();
    await waitFor('the slot freed', async () => hub.health().subscribers === 0);
  });

  it('refuses an upgrade it cannot admit with an HTTP error envelope', async () => {
    const refused = (url: string) =>
      new Promise<number>((resolve) => {
        const s = new WebSocket(url);
        s.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        s.on('error', () => {});
      });
    expect(await refused(`${ws}?topics=nope`)).toBe(400);
    expect(await refused(`${served.url.replace('http', 'ws')}/v1/sockets`)).toBe(404);
    const open = await Promise.all([0, 1, 2].map(() => connect(ws)));
    expect(await refused(ws)).toBe(429);
    for (const c of open) c.ws.close();
    await waitFor('the slots freed', async () => hub.health().subscribers === 0);
  });

  it('closes a socket that stops reading with 4008, counted as a slow consumer dropped', async () => {
    const dropped = told.dropped;
    const c = await connect(`${ws}?topics=block`);
    await c.next('welcome');
    // The client stops reading: what the server sends piles up in its socket buffer.
    (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = { padding: 'x'.repeat(32 * 1024) };
    for (let i = 0; i < 2_000 && hub.health().subscribers > 0; i++) {
      hub.receive([{ id: String(1_000 + i), type: 'block', at: '', data: big } as unknown as ChainEvent]);
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await waitFor('the slow socket dropped', async () => hub.health().subscribers === 0, 20_000);
    (c.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect((await c.closed).code).toBe(CLOSE_CODES.slowConsumer);
    expect(told.dropped - dropped).toBe(1);
    expect(told.sent).toBeGreaterThan(0);
  });
});
