import type { ChainEvent, EventDraft, EventTopic } from '@explorer/core';
import { eventFor, type Subscription } from '@explorer/core';
import { toBlock } from '../mappers.js';
import { amountText, type Int8, type Sql } from '../sql.js';
import { firstTxNoAbove, firstTxNoOf, heightOf } from '../tx-no.js';
import { selectBlock } from './blocks.js';

/** Taken in every transaction that appends events, so ids are committed in the order they were drawn (the
 * advisory-lock keys: 7301001 migrations, 7301002 the indexer, 7301003 the market refresher, 7301004 this). */
const EVENTS_LOCK = 7_301_004;
/** Events the log keeps by default; older ones are trimmed as new ones arrive. */
export const DEFAULT_EVENT_RETENTION = 10_000;

interface EventRow {
  id: Int8;
  topic: EventTopic;
  at: Date | string;
  payload: unknown;
}

const toEvent = (r: EventRow): ChainEvent =>
  ({
    id: String(r.id),
    type: r.topic,
    at: r.at instanceof Date ? r.at.toISOString() : new Date(r.at).toISOString(),
    data: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
  }) as ChainEvent;

/** What appending did: the events as stored, in order. */
export interface AppendOptions {
  /** Events the log keeps (default 10,000). */
  retain?: number;
}

interface WebhookTarget {
  id: string;
  topics: string[];
  addresses: string[];
}

/**
 * Appends events to the log in the caller's transaction, queues a delivery for every webhook they concern (the
 * outbox commits with the events), and trims the log to `retain` events. Ids are drawn under a transaction
 * lock, so readers never see a later id commit before an earlier one.
 */
export async function appendEvents(
  tx: Sql,
  drafts: readonly EventDraft[],
  opts: AppendOptions = {},
): Promise<ChainEvent[]> {
  if (drafts.length === 0) return [];
  await tx.query('SELECT pg_advisory_xact_lock($1)', [EVENTS_LOCK], 'events.lock');
  const rows = await tx.query<EventRow>(
    `INSERT INTO events (topic, payload)
     SELECT t, p FROM unnest($1::text[], $2::json[]) WITH ORDINALITY AS d(t, p, n) ORDER BY n
     RETURNING id, topic, at, payload`,
    [drafts.map((d) => d.type), drafts.map((d) => JSON.stringify(d.data))],
    'events.append',
  );
  const events = rows.map(toEvent).sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
  const hooks = await tx.query<WebhookTarget>(
    'SELECT id, topics, addresses FROM webhooks WHERE removed_at IS NULL',
    [],
    'events.webhooks',
  );
  const queued: [string, string, string, string][] = [];
  for (const hook of hooks) {
    const sub: Subscription = {
      topics: new Set(hook.topics as EventTopic[]),
      addresses: new Set(hook.addresses),
    };
    for (const e of events) {
      const cut = eventFor(sub, e);
      if (cut) queued.push([hook.id, cut.id, cut.type, JSON.stringify(cut)]);
    }
  }
  if (queued.length > 0) {
    await tx.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, topic, body)
       SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[]) ON CONFLICT DO NOTHING`,
      [queued.map((q) => q[0]), queued.map((q) => q[1]), queued.map((q) => q[2]), queued.map((q) => q[3])],
      'events.queue-deliveries',
    );
  }
  const last = events[events.length - 1]!.id;
  await tx.query(
    'DELETE FROM events WHERE id <= $1::int8 - $2::int8',
    [last, opts.retain ?? DEFAULT_EVENT_RETENTION],
    'events.trim',
  );
  return events;
}

/** Events after `afterId`, oldest first, at most `limit`. */
export async function readEventsAfter(sql: Sql, afterId: string, limit = 1_000): Promise<ChainEvent[]> {
  const rows = await sql.query<EventRow>(
    'SELECT id, topic, at, payload FROM events WHERE id > $1::int8 ORDER BY id LIMIT $2',
    [afterId, limit],
    'events.after',
  );
  return rows.map(toEvent);
}

/**
 * The highest block the newest `reorg` event in the log names as added (-1 when none): those blocks are
 * announced as `block` events even below the live window, also by an indexer restarted after the rollback.
 */
export async function lastReorgAddedHeight(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ payload: unknown }>(
    "SELECT payload FROM events WHERE topic = 'reorg' ORDER BY id DESC LIMIT 1",
    [],
    'events.last-reorg',
  );
  if (!row) return -1;
  const data = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as {
    forkHeight: number;
    added: { height: number }[];
  };
  return data.added.at(-1)?.height ?? data.forkHeight;
}

/** The ids the log holds: its oldest and latest (null when empty), and the id the next event will exceed. */
export async function eventLogBounds(sql: Sql): Promise<{ oldest: string | null; latest: string | null }> {
  const [row] = await sql.query<{ oldest: Int8 | null; latest: Int8 | null }>(
    'SELECT min(id) AS oldest, max(id) AS latest FROM events',
    [],
    'events.bounds',
  );
  return {
    oldest: row?.oldest == null ? null : String(row.oldest),
    latest: row?.latest == null ? null : String(row.latest),
  };
}

interface ActivityRow {
  block_height: number;
  address: string;
  txid: string;
  received: Int8;
  sent: Int8;
  balance: Int8;
}

/**
 * The `block` and `address` events of indexed blocks `from`..`to` (read in the transaction that wrote them):
 * each block's summary as `/v1/blocks/{height}` serves it then, and one `address` event per block listing
 * every address it touched, with what it received and sent and its balance after the block.
 */
export async function blockEventDrafts(tx: Sql, from: number, to: number): Promise<EventDraft[]> {
  const activity = await tx.query<ActivityRow>(
    `SELECT ${heightOf('h.tx_no')} AS block_height, a.address, encode(t.txid, 'hex') AS txid, h.received, h.sent,
            h.balance
     FROM address_txs h JOIN addresses a ON a.id = h.address_id JOIN txs t ON t.tx_no = h.tx_no
     WHERE h.tx_no >= ${firstTxNoOf('$1')} AND h.tx_no < ${firstTxNoAbove('$2')}
     ORDER BY block_height, a.address, h.tx_no`,
    [from, to],
    'events.block-activity',
  );
  const byHeight = new Map<number, ActivityRow[]>();
  for (const r of activity) {
    const list = byHeight.get(r.block_height);
    if (list) list.push(r);
    else byHeight.set(r.block_height, [r]);
  }
  const drafts: EventDraft[] = [];
  for (let h = from; h <= to; h++) {
    const row = await selectBlock(tx, { height: h });
    if (!row) continue;
    const block = { ...toBlock(row), confirmations: to - h + 1 };
    drafts.push({ type: 'block', data: block });
    const rows = byHeight.get(h) ?? [];
    if (rows.length === 0) continue;
    const perAddress = new Map<
      string,
      { txids: string[]; received: bigint; sent: bigint; balance: string }
    >();
    for (const r of rows) {
      const a = perAddress.get(r.address) ?? { txids: [], received: 0n, sent: 0n, balance: '0' };
      a.txids.push(r.txid);
      a.received += BigInt(r.received);
      a.sent += BigInt(r.sent);
      a.balance = amountText(r.balance);
      perAddress.set(r.address, a);
    }
    drafts.push({
      type: 'address',
      data: {
        confirmed: true,
        height: h,
        blockHash: row.hash,
        activity: [...perAddress].map(([address, a]) => ({
          address,
          txids: a.txids,
          received: a.received.toString(),
          sent: a.sent.toString(),
          balance: a.balance,
          mempoolDelta: null,
        })),
      },
    });
  }
  return drafts;
}
