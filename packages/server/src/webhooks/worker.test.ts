import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { EventDraft } from '@explorer/core';
import { appendEvents, insertWebhook, listWebhookDeliveries, removeWebhook, type Sql } from '@explorer/db';
import {
  listen,
  openTestDatabase,
  type TestDatabase,
  type TestServer,
  testDrivers,
  waitFor,
} from '@explorer/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '../test-support/log-capture.js';
import { verifyWebhookSignature } from './signature.js';
import { createWebhookWorker, type WebhookWorker } from './worker.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local receiver on 127.0.0.1: keeps every request and answers as `answer` says (null: never answers). */
async function receiver(answer: (n: number) => number | null) {
  const got: Received[] = [];
  const server = await listen((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answer(got.length);
      if (status !== null) res.writeHead(status).end('ok');
    });
  });
  return { got, server };
}

const reorg = (forkHeight: number): EventDraft => ({
  type: 'reorg',
  data: { forkHeight, forkHash: null, removed: [], added: [] },
});

describe.each(testDrivers())('the webhook delivery worker (%s)', (driver) => {
  let db: TestDatabase;
  let sql: Sql;
  const running: { worker?: WebhookWorker; servers: TestServer[] } = { servers: [] };

  beforeAll(async () => {
    db = await openTestDatabase(driver);
    sql = db.sql;
  });
  afterEach(async () => {
    await running.worker?.stop();
    running.worker = undefined;
    for (const s of running.servers.splice(0)) await s.close();
    for (const w of await sql.query<{ id: string }>('SELECT id FROM webhooks WHERE removed_at IS NULL'))
      await removeWebhook(sql, w.id);
  });
  afterAll(async () => {
    await db?.drop();
  });

  function start(opts: Partial<Parameters<typeof createWebhookWorker>[0]> = {}) {
    const capture = captureLog();
    const worker = createWebhookWorker({ sql, log: capture.log, pollMs: 20, ...opts });
    running.worker = worker;
    worker.start();
    return { worker, capture };
  }

  async function hookTo(answer: (n: number) => number | null) {
    const r = await receiver(answer);
    running.servers.push(r.server);
    const hook = await insertWebhook(sql, { url: `${r.server.url}/hook`, topics: ['reorg'] });
    return { ...r, hook };
  }

  const append = (...drafts: EventDraft[]) => sql.transaction((tx) => appendEvents(tx, drafts));
  const delivery = async (webhookId: string, status: string) =>
    (await listWebhookDeliveries(sql, { webhookId, limit: 1 })).find((d) => d.status === status);

  it('POSTs the event signed: it verifies with the secret, and not when tampered, with another secret or out of time', async () => {
    const { got, hook } = await hookTo(() => 204);
    const { worker } = start();
    const [event] = await append(reorg(5));
    worker.wake();
    await waitFor('the delivery', () => delivery(hook.id, 'delivered'));

    expect(got).toHaveLength(1);
    const [{ headers, body }] = got as [Received];
    expect(JSON.parse(body)).toEqual(event);
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'explorer-event-id': event!.id,
      'explorer-event-type': 'reorg',
      'explorer-delivery-attempt': '1',
      'explorer-webhook-id': hook.id,
    });
    const header = headers['explorer-signature'] as string;
    const check = verifyWebhookSignature({ secret: hook.secret, header, body });
    expect(check.ok).toBe(true);
    expect(
      verifyWebhookSignature({
        secret: hook.secret,
        header,
        body: body.replace('"forkHeight":5', '"forkHeight":6'),
      }),
    ).toEqual({
      ok: false,
      reason: 'no signature matches the body and the secret',
    });
    const otherSecret = `${hook.secret.slice(0, -1)}${hook.secret.endsWith('A') ? 'B' : 'A'}`;
    expect(verifyWebhookSignature({ secret: otherSecret, header, body }).ok).toBe(false);
    const signedAt = check.ok ? check.timestamp : 0;
    expect(
      verifyWebhookSignature({ secret: hook.secret, header, body, now: (signedAt + 301) * 1000 }).ok,
    ).toBe(false);
    expect((await listWebhookDeliveries(sql, { webhookId: hook.id }))[0]).toMatchObject({
      eventId: event!.id,
      status: 'delivered',
      attempts: 1,
      lastStatus: 204,
      lastError: null,
    });
  });

  it('retries with backoff: a receiver answering 500 five times gets the same event on the 6th attempt', async () => {
    const { got, hook } = await hookTo((n) => (n <= 5 ? 500 : 200));
    const outcomes: string[] = [];
    const { worker, capture } = start({
      retryBaseMs: 5,
      retryMaxMs: 40,
      onAttempt: (outcome) => outcomes.push(outcome),
    });
    const [event] = await append(reorg(6));
    worker.wake();
    const done = await waitFor('the 6th attempt to deliver', () => delivery(hook.id, 'delivered'));
    // What the metrics count: each attempt's outcome, once it is recorded.
    await waitFor('six outcomes', async () => outcomes.length === 6);
    expect(outcomes).toEqual(['retry', 'retry', 'retry', 'retry', 'retry', 'delivered']);

    expect(done).toMatchObject({ eventId: event!.id, attempts: 6, lastStatus: 200, lastError: null });
    expect(got.map((r) => r.headers['explorer-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(new Set(got.map((r) => r.headers['explorer-event-id']))).toEqual(new Set([event!.id]));
    for (const r of got)
      expect(
        verifyWebhookSignature({
          secret: hook.secret,
          header: r.headers['explorer-signature'] as string,
          body: r.body,
        }).ok,
      ).toBe(true);
    const warned = capture.messages('webhook delivery failed');
    expect(warned.map((w) => [w.level, w.webhookId, w.attempt, w.error])).toEqual(
      [1, 2, 3, 4, 5].map((n) => ['warn', hook.id, n, 'HTTP 500']),
    );
  });

  it('times out a receiver that never answers, and gives up on receivers still failing at the maximum age', async () => {
    const failing = await hookTo(() => 503);
    const silent = await hookTo(() => null);
    const timing = { retryBaseMs: 5, retryMaxMs: 10, timeoutMs: 1_000, leaseMs: 2_000 };
    const first = start(timing);
    await append(reorg(7));
    first.worker.wake();
    const last = async (webhookId: string) => (await listWebhookDeliveries(sql, { webhookId, limit: 1 }))[0];
    await waitFor('a few retries', async () => ((await last(failing.hook.id))?.attempts ?? 0) >= 3);
    expect(await last(failing.hook.id)).toMatchObject({
      status: 'pending',
      lastStatus: 503,
      lastError: 'HTTP 503',
    });
    const timedOut = await waitFor('the silent receiver to time out', async () => {
      const d = await last(silent.hook.id);
      return d?.lastError ? d : null;
    });
    expect(timedOut).toMatchObject({
      status: 'pending',
      lastStatus: null,
      lastError: 'no answer within 1000 ms',
    });
    await first.worker.stop();

    // The same deliveries under a worker whose maximum age they are past: the next failure gives them up.
    const outcomes: string[] = [];
    const { capture } = start({ ...timing, maxAgeMs: 1, onAttempt: (outcome) => outcomes.push(outcome) });
    const failed = await waitFor('the failing receiver to be given up', () =>
      delivery(failing.hook.id, 'failed'),
    );
    expect(failed.attempts).toBeGreaterThan(3);
    expect(failed).toMatchObject({ lastStatus: 503, lastError: 'HTTP 503', nextAttemptAt: null });
    expect(failed.finishedAt).toEqual(expect.any(String));
    // The attempt that gave up was answered; one cut short by the first worker's stop may never have arrived.
    expect(failing.got.at(-1)?.headers['explorer-delivery-attempt']).toBe(String(failed.attempts));
    const quiet = await waitFor('the silent receiver to be given up', () =>
      delivery(silent.hook.id, 'failed'),
    );
    expect(quiet).toMatchObject({ lastStatus: null, lastError: 'no answer within 1000 ms' });
    const gaveUp = capture.messages('webhook delivery given up: still failing at its maximum age');
    expect(gaveUp.map((w) => w.webhookId).sort()).toEqual([failing.hook.id, silent.hook.id].sort());
    expect(gaveUp.every((w) => w.level === 'warn')).toBe(true);
    await waitFor(
      'both given up, as the metrics count',
      async () => outcomes.filter((o) => o === 'failed').length === 2,
    );
  });

  it('never delivers to a webhook removed meanwhile', async () => {
    const removed = await hookTo(() => 200);
    await append(reorg(8));
    expect(await removeWebhook(sql, removed.hook.id)).toEqual({ result: 'removed', abandoned: 1 });
    const active = await hookTo(() => 200);
    const { worker } = start();
    await append(reorg(9));
    worker.wake();
    await waitFor('the active webhook’s delivery', () => delivery(active.hook.id, 'delivered'));
    expect(removed.got).toEqual([]);
    expect((await listWebhookDeliveries(sql, { webhookId: removed.hook.id }))[0]).toMatchObject({
      status: 'failed',
      attempts: 0,
    });
  });

  it('on stop, ends a request in flight and leaves its delivery due at once for the next start', async () => {
    const hung = await hookTo(() => null);
    const { worker, capture } = start();
    await append(reorg(10));
    worker.wake();
    await waitFor('the request to arrive', async () => hung.got.length === 1);
    await worker.stop();
    const [d] = await listWebhookDeliveries(sql, { webhookId: hung.hook.id });
    expect(d).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'the server stopped before the receiver answered',
    });
    expect(capture.messages('webhook delivery failed')).toEqual([]);
    // A new worker takes it at once (no lease to wait out).
    const next = start({ timeoutMs: 100, leaseMs: 1_000 });
    await waitFor('the second attempt', async () => hung.got.length === 2);
    expect(hung.got[1]!.headers['explorer-delivery-attempt']).toBe('2');
    await next.worker.stop();
  });
});
