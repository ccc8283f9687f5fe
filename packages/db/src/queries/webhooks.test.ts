import type { EventDraft } from '@explorer/core';
import { describe, expect, it } from 'vitest';
import { drivers, useDatabase } from '../test-support/database.js';
import { appendEvents } from './events.js';
import {
  claimDueDeliveries,
  insertWebhook,
  isWebhookId,
  listWebhookDeliveries,
  listWebhooks,
  REMOVED_WEBHOOK_ERROR,
  recordDeliveryAttempt,
  removeWebhook,
} from './webhooks.js';

const ALICE = 'dvt1qalice0000000000000000';
const BOB = 'dvt1qbob000000000000000000';

const reorg = (forkHeight: number): EventDraft => ({
  type: 'reorg',
  data: { forkHeight, forkHash: null, removed: [], added: [] },
});

const activity = (...addresses: string[]): EventDraft => ({
  type: 'address',
  data: {
    confirmed: true,
    height: 7,
    blockHash: 'ab'.repeat(32),
    activity: addresses.map((address) => ({
      address,
      txids: ['cd'.repeat(32)],
      received: '5',
      sent: '0',
      balance: '5',
      mempoolDelta: null,
    })),
  },
});

describe.each(drivers)('webhook queries (%s)', (driver) => {
  const database = useDatabase(driver);

  it('adds webhooks with a fresh id and secret, validates URL, topics and addresses, and lists them without secrets', async () => {
    const sql = database();
    const hook = await insertWebhook(sql, {
      url: 'https://example.org/hook#frag',
      topics: ['block,address'],
      addresses: [ALICE],
    });
    expect(isWebhookId(hook.id)).toBe(true);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(hook).toMatchObject({ url: 'https://example.org/hook', addresses: [ALICE], removedAt: null });
    expect([...hook.topics].sort()).toEqual(['address', 'block']);
    const other = await insertWebhook(sql, { url: 'http://127.0.0.1:9/x' });
    expect(other.id).not.toBe(hook.id);
    expect(other.secret).not.toBe(hook.secret);
    expect([...other.topics].sort()).toEqual(['block', 'reorg']);

    const bad = (input: Parameters<typeof insertWebhook>[1]) => insertWebhook(sql, input);
    await expect(bad({ url: 'ftp://example.org/' })).rejects.toThrow(
      /must be http:\/\/ or https:\/\/ \(got a ftp: URL\)/,
    );
    await expect(bad({ url: 'example.org/hook' })).rejects.toThrow(/absolute http/);
    await expect(bad({ url: 'https://e.org/', topics: ['blocks'] })).rejects.toThrow(/unknown: blocks/);
    await expect(bad({ url: 'https://e.org/', topics: ['address'] })).rejects.toThrow(/needs addresses/);
    await expect(bad({ url: 'https://e.org/', addresses: ['x y'] })).rejects.toThrow(/not one: x y/);

    const listed = await listWebhooks(sql);
    expect(listed.map((w) => w.id)).toEqual([hook.id, other.id]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    await removeWebhook(sql, hook.id);
    await removeWebhook(sql, other.id);
  });

  it('claims due deliveries under a lease, records attempts, and fails the pending ones of a removed webhook', async () => {
    const sql = database();
    const blocks = await insertWebhook(sql, { url: 'http://127.0.0.1:9/a', topics: ['reorg'] });
    const alice = await insertWebhook(sql, {
      url: 'http://127.0.0.1:9/b',
      addresses: [ALICE],
      topics: ['address'],
    });
    const events = await sql.transaction((tx) =>
      appendEvents(tx, [reorg(1), activity(ALICE, BOB), activity(BOB)]),
    );

    // The outbox holds one row per event each webhook receives; the address event is cut to Alice.
    const claimed = await claimDueDeliveries(sql, { limit: 10, leaseMs: 60_000 });
    expect(claimed.map((c) => [c.webhookId, c.eventId, c.attempt])).toEqual([
      [blocks.id, events[0]!.id, 1],
      [alice.id, events[1]!.id, 1],
    ]);
    const body = JSON.parse(claimed[1]!.body);
    expect(body).toMatchObject({ id: events[1]!.id, type: 'address' });
    expect(body.data.activity.map((a: { address: string }) => a.address)).toEqual([ALICE]);
    expect(claimed[0]).toMatchObject({ url: 'http://127.0.0.1:9/a', secret: blocks.secret, topic: 'reorg' });

    // Leased: not claimed again until the lease runs out (a lease of 0 runs out at once).
    expect(await claimDueDeliveries(sql, { limit: 10, leaseMs: 60_000 })).toEqual([]);
    expect(
      await recordDeliveryAttempt(sql, claimed[0]!.id, {
        result: 'retry',
        httpStatus: 500,
        error: 'HTTP 500',
        retryInMs: 0,
        maxAgeMs: 3_600_000,
      }),
    ).toBe('pending');
    const again = await claimDueDeliveries(sql, { limit: 10, leaseMs: 0 });
    expect(again.map((c) => [c.id, c.attempt])).toEqual([[claimed[0]!.id, 2]]);
    // Claimed with an expired lease (a crashed worker): claimed once more, the attempt counted.
    expect((await claimDueDeliveries(sql, { limit: 10, leaseMs: 60_000 }))[0]?.attempt).toBe(3);
    expect(await recordDeliveryAttempt(sql, claimed[0]!.id, { result: 'delivered', httpStatus: 204 })).toBe(
      'delivered',
    );
    // A retry due past the maximum age fails the delivery instead.
    expect(
      await recordDeliveryAttempt(sql, claimed[1]!.id, {
        result: 'retry',
        httpStatus: null,
        error: 'connect ECONNREFUSED',
        retryInMs: 10_000,
        maxAgeMs: 5_000,
      }),
    ).toBe('failed');
    // A late answer never revives a finished delivery.
    expect(
      await recordDeliveryAttempt(sql, claimed[1]!.id, { result: 'delivered', httpStatus: 200 }),
    ).toBeNull();

    const log = await listWebhookDeliveries(sql);
    expect(log.map((d) => [d.eventId, d.status, d.attempts, d.lastStatus, d.lastError])).toEqual([
      [events[1]!.id, 'failed', 1, null, 'connect ECONNREFUSED'],
      [events[0]!.id, 'delivered', 3, 204, null],
    ]);
    expect(log.every((d) => d.finishedAt !== null && d.nextAttemptAt === null)).toBe(true);
    expect(
      (await listWebhookDeliveries(sql, { webhookId: blocks.id, limit: 5 })).map((d) => d.eventId),
    ).toEqual([events[0]!.id]);
    expect(await listWebhookDeliveries(sql, { limit: 1 })).toHaveLength(1);

    // Removal: nothing more is queued for it, and what was pending fails with a clear reason.
    const [next] = await sql.transaction((tx) => appendEvents(tx, [reorg(2)]));
    expect(await removeWebhook(sql, blocks.id)).toEqual({ result: 'removed', abandoned: 1 });
    expect(await removeWebhook(sql, blocks.id)).toEqual({ result: 'already-removed', abandoned: 0 });
    expect(await removeWebhook(sql, 'wh_0000000000000000')).toEqual({ result: 'unknown', abandoned: 0 });
    await sql.transaction((tx) => appendEvents(tx, [reorg(3)]));
    expect(await claimDueDeliveries(sql, { limit: 10, leaseMs: 0 })).toEqual([]);
    const [abandoned] = await listWebhookDeliveries(sql, { webhookId: blocks.id, limit: 1 });
    expect(abandoned).toMatchObject({
      eventId: next!.id,
      status: 'failed',
      attempts: 0,
      lastError: REMOVED_WEBHOOK_ERROR,
    });
    expect((await listWebhooks(sql)).find((w) => w.id === blocks.id)?.removedAt).toEqual(expect.any(String));
    await removeWebhook(sql, alice.id);
  });

  it('never hands one delivery to two workers claiming at once', async () => {
    const sql = database();
    const hook = await insertWebhook(sql, { url: 'http://127.0.0.1:9/c', topics: ['reorg'] });
    await sql.transaction((tx) =>
      appendEvents(
        tx,
        Array.from({ length: 20 }, (_, i) => reorg(i)),
      ),
    );
    const batches = await Promise.all(
      Array.from({ length: 4 }, () => claimDueDeliveries(sql, { limit: 8, leaseMs: 60_000 })),
    );
    const ids = batches.flat().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(20);
    await removeWebhook(sql, hook.id);
  });
});
