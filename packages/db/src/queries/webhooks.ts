import { randomBytes } from 'node:crypto';
import { BadRequestError, type EventTopic, parseSubscription } from '@explorer/core';
import type { Int8, Sql } from '../sql.js';

/** Addresses one webhook may track (each event is cut to them in the transaction that appends it). */
export const MAX_WEBHOOK_ADDRESSES = 1_000;

/** A webhook as listed to operators: everything but its secret. */
export interface WebhookListing {
  id: string;
  url: string;
  topics: EventTopic[];
  addresses: string[];
  createdAt: string;
  removedAt: string | null;
}

/** A webhook just added, with the secret its deliveries are signed with (shown to the operator once). */
export interface CreatedWebhook extends WebhookListing {
  secret: string;
}

/** What a delivery's state is: waiting for its next attempt, delivered, or given up. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One delivery as the delivery log lists it (without its body). */
export interface DeliveryListing {
  id: string;
  webhookId: string;
  eventId: string;
  topic: EventTopic;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: string | null;
  /** HTTP status of the last answer; null when none came (network error, timeout) or before any attempt. */
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** A delivery claimed for one attempt: what to POST, where, and how to sign it. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  topic: EventTopic;
  /** The exact JSON to POST (the event as this webhook receives it). */
  body: string;
  /** This attempt's number, from 1 (an attempt cut short by a crash counts). */
  attempt: number;
  createdAt: string;
  url: string;
  secret: string;
}

/** How one attempt ended. */
export type AttemptOutcome =
  | { result: 'delivered'; httpStatus: number }
  | {
      result: 'retry';
      httpStatus: number | null;
      error: string;
      /** Wait before the next attempt. */
      retryInMs: number;
      /** Oldest a delivery may get: a retry due later than `created + maxAgeMs` fails it instead. */
      maxAgeMs: number;
    }
  | { result: 'failed'; httpStatus: number | null; error: string };

/** The error a delivery of a removed webhook is failed with. */
export const REMOVED_WEBHOOK_ERROR = 'the webhook was removed before this event was delivered';

const WEBHOOK_ID = /^wh_[0-9a-f]{16}$/;

/** True when `id` has the shape of a webhook id (`wh_` and 16 hex digits). */
export const isWebhookId = (id: string): boolean => WEBHOOK_ID.test(id);

/** A new signing secret: `whsec_` and 32 random bytes, base64url. */
export const generateWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

const iso = (v: Date | string | null): string | null =>
  v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString();

interface WebhookRow {
  id: string;
  url: string;
  topics: string[];
  addresses: string[];
  secret?: string;
  created_at: Date | string;
  removed_at: Date | string | null;
}

const webhookListing = (r: WebhookRow): WebhookListing => ({
  id: r.id,
  url: r.url,
  topics: r.topics as EventTopic[],
  addresses: r.addresses,
  createdAt: iso(r.created_at)!,
  removedAt: iso(r.removed_at),
});

/** The URL as stored: http or https only, no fragment; a bad one is a BadRequestError. */
function webhookUrl(raw: string): string {
  if (raw.length > 2_048) throw new BadRequestError('the webhook URL must be at most 2048 characters');
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new BadRequestError('the webhook URL must be an absolute http:// or https:// URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new BadRequestError(
      `the webhook URL must be http:// or https:// (got a ${u.protocol.replace(/:$/, '')}: URL)`,
    );
  u.hash = '';
  return u.toString();
}

/** What a webhook is added with. */
export interface WebhookInput {
  url: string;
  /** Topics, each a name or a comma-separated list; none means block and reorg. */
  topics?: readonly string[];
  /** Addresses, each one or a comma-separated list; naming any implies the `address` topic. */
  addresses?: readonly string[];
}

/**
 * Checks and normalises what a webhook is added with: an http(s) URL, known topics, well-formed addresses
 * (naming some implies the `address` topic, which needs them; no topic named means block and reorg, as for
 * streams). Bad input is a BadRequestError with a one-line message.
 * @example const { url, topics, addresses } = parseWebhookInput({ url, topics: ['block,address'], addresses })
 */
export function parseWebhookInput(input: WebhookInput): {
  url: string;
  topics: EventTopic[];
  addresses: string[];
} {
  const url = webhookUrl(input.url);
  const sub = parseSubscription(input.topics ?? [], input.addresses ?? [], Number.POSITIVE_INFINITY);
  if (sub.addresses.size > MAX_WEBHOOK_ADDRESSES)
    throw new BadRequestError(
      `a webhook tracks at most ${MAX_WEBHOOK_ADDRESSES} addresses (${sub.addresses.size} named)`,
    );
  return { url, topics: [...sub.topics], addresses: [...sub.addresses] };
}

/**
 * Stores a webhook (input checked by parseWebhookInput) with a fresh id, and a fresh secret unless given.
 * @example const hook = await insertWebhook(sql, { url: 'https://example.org/hook', topics: ['block'] })
 */
export async function insertWebhook(
  sql: Sql,
  input: WebhookInput & { secret?: string },
): Promise<CreatedWebhook> {
  const { url, topics, addresses } = parseWebhookInput(input);
  const id = `wh_${randomBytes(8).toString('hex')}`;
  const secret = input.secret ?? generateWebhookSecret();
  const [row] = await sql.query<WebhookRow>(
    `INSERT INTO webhooks (id, url, topics, addresses, secret) VALUES ($1, $2, $3::text[], $4::text[], $5)
     RETURNING id, url, topics, addresses, created_at, removed_at`,
    [id, url, topics, addresses, secret],
    'webhooks.insert',
  );
  return { ...webhookListing(row!), secret };
}

/** Every webhook, removed ones included, oldest first, without secrets. */
export async function listWebhooks(sql: Sql): Promise<WebhookListing[]> {
  const rows = await sql.query<WebhookRow>(
    'SELECT id, url, topics, addresses, created_at, removed_at FROM webhooks ORDER BY created_at, id',
    [],
    'webhooks.list',
  );
  return rows.map(webhookListing);
}

/**
 * Removes a webhook: no event is queued for it any more, and its pending deliveries fail with
 * REMOVED_WEBHOOK_ERROR. The webhook and its delivery log stay, for the record.
 */
export async function removeWebhook(
  sql: Sql,
  id: string,
): Promise<{ result: 'removed' | 'already-removed' | 'unknown'; abandoned: number }> {
  return sql.transaction(async (tx) => {
    const [row] = await tx.query<{ was_removed: boolean }>(
      `WITH old AS (SELECT id, removed_at IS NOT NULL AS was_removed FROM webhooks WHERE id = $1 FOR UPDATE)
       UPDATE webhooks w SET removed_at = COALESCE(w.removed_at, now())
       FROM old WHERE w.id = old.id RETURNING old.was_removed`,
      [id],
      'webhooks.remove',
    );
    if (!row) return { result: 'unknown' as const, abandoned: 0 };
    const abandoned = await tx.query(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = $2, finished_at = now()
       WHERE webhook_id = $1 AND status = 'pending' RETURNING id`,
      [id, REMOVED_WEBHOOK_ERROR],
      'webhooks.abandon-deliveries',
    );
    return { result: row.was_removed ? 'already-removed' : 'removed', abandoned: abandoned.length };
  });
}

interface ClaimRow {
  id: Int8;
  webhook_id: string;
  event_id: Int8;
  topic: EventTopic;
  body: string;
  attempts: number;
  created_at: Date | string;
  url: string;
  secret: string;
}

/**
 * Claims up to `limit` due deliveries of active webhooks for one attempt each: counts the attempt and moves
 * the next one `leaseMs` ahead, in one statement. A process that dies mid-attempt leaves the delivery to be
 * tried again once the lease expires; locked rows are skipped, so several workers never claim the same one.
 */
export async function claimDueDeliveries(
  sql: Sql,
  opts: { limit: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  const rows = await sql.query<ClaimRow>(
    `UPDATE webhook_deliveries d
     SET attempts = d.attempts + 1, next_attempt_at = now() + $2::float8 * interval '1 millisecond'
     FROM webhooks w
     WHERE w.id = d.webhook_id AND d.id IN (
       SELECT q.id FROM webhook_deliveries q JOIN webhooks h ON h.id = q.webhook_id
       WHERE q.status = 'pending' AND q.next_attempt_at <= now() AND h.removed_at IS NULL
       ORDER BY q.id LIMIT $1 FOR UPDATE OF q SKIP LOCKED)
     RETURNING d.id, d.webhook_id, d.event_id, d.topic, d.body, d.attempts, d.created_at, w.url, w.secret`,
    [opts.limit, opts.leaseMs],
    'webhooks.claim',
  );
  return rows
    .map((r) => ({
      id: String(r.id),
      webhookId: r.webhook_id,
      eventId: String(r.event_id),
      topic: r.topic,
      body: r.body,
      attempt: Number(r.attempts),
      createdAt: iso(r.created_at)!,
      url: r.url,
      secret: r.secret,
    }))
    .sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
}

/**
 * Records how an attempt ended: delivered, retried after `retryInMs` (failed instead when that falls past the
 * delivery's maximum age), or failed. Returns the delivery's status now, or null when it was no longer pending
 * (its webhook was removed meanwhile): a late answer never revives it.
 */
export async function recordDeliveryAttempt(
  sql: Sql,
  id: string,
  outcome: AttemptOutcome,
): Promise<DeliveryStatus | null> {
  const delivered = outcome.result === 'delivered';
  const retryInMs = outcome.result === 'retry' ? outcome.retryInMs : 0;
  const maxAgeMs = outcome.result === 'retry' ? outcome.maxAgeMs : null;
  const [row] = await sql.query<{ status: DeliveryStatus }>(
    `UPDATE webhook_deliveries d SET
       status = n.status,
       finished_at = CASE WHEN n.status = 'pending' THEN NULL ELSE now() END,
       last_status = $3::int, last_error = $6::text,
       next_attempt_at = now() + $4::float8 * interval '1 millisecond'
     FROM (SELECT id, CASE
             WHEN $2::boolean THEN 'delivered'
             WHEN $5::float8 IS NOT NULL
               AND now() + $4::float8 * interval '1 millisecond'
                 <= created_at + $5::float8 * interval '1 millisecond' THEN 'pending'
             ELSE 'failed' END AS status
           FROM webhook_deliveries WHERE id = $1::int8) n
     WHERE d.id = n.id AND d.status = 'pending'
     RETURNING d.status`,
    [
      id,
      delivered,
      outcome.httpStatus,
      retryInMs,
      maxAgeMs,
      outcome.result === 'delivered' ? null : outcome.error.slice(0, 500),
    ],
    'webhooks.record-attempt',
  );
  return row?.status ?? null;
}

/** Deliveries waiting for an attempt (the outbox): pending ones of every webhook, due or not. */
export async function countPendingDeliveries(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ n: Int8 }>(
    `SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`,
    [],
    'webhooks.outbox-depth',
  );
  return Number(row?.n ?? 0);
}

interface DeliveryRow {
  id: Int8;
  webhook_id: string;
  event_id: Int8;
  topic: EventTopic;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | string;
  last_status: number | null;
  last_error: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
}

/** The delivery log: newest first, of one webhook or all, at most `limit`. */
export async function listWebhookDeliveries(
  sql: Sql,
  opts: { webhookId?: string; limit?: number } = {},
): Promise<DeliveryListing[]> {
  const rows = await sql.query<DeliveryRow>(
    `SELECT id, webhook_id, event_id, topic, status, attempts, next_attempt_at, last_status, last_error,
       created_at, finished_at
     FROM webhook_deliveries WHERE ($1::text IS NULL OR webhook_id = $1) ORDER BY id DESC LIMIT $2`,
    [opts.webhookId ?? null, opts.limit ?? 50],
    'webhooks.deliveries',
  );
  return rows.map((r) => ({
    id: String(r.id),
    webhookId: r.webhook_id,
    eventId: String(r.event_id),
    topic: r.topic,
    status: r.status,
    attempts: Number(r.attempts),
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    lastStatus: r.last_status,
    lastError: r.last_error,
    createdAt: iso(r.created_at)!,
    finishedAt: iso(r.finished_at),
  }));
}
