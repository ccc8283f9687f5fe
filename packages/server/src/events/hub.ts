import {
  ApiError,
  type ChainEvent,
  type EventFeed,
  type EventFeedHealth,
  type EventSink,
  eventFor,
  type Logger,
  ServiceUnavailableError,
  type SubscribeRequest,
} from '@explorer/core';
import { eventLogBounds, readEventsAfter, type Sql } from '@explorer/db';
import type { RedisClient } from '../redis.js';

/** The live event feed of one API process, fed by its own writers, Redis and the event log. */
export interface EventHub extends EventFeed {
  /** Events this process's own writers committed (in id order). */
  receive(events: readonly ChainEvent[]): void;
  /** Reads where the log stands and starts listening; resolves once ready to serve. */
  start(): Promise<void>;
  /** Ends every subscription (told `shutdown`) and stops listening. */
  close(): Promise<void>;
}

/** What the hub is built from. */
export interface EventHubOptions {
  /** The primary database: the log is read where it is written, never behind a replica. */
  sql: Sql;
  log: Logger;
  /** Whether an indexer runs in this process and hands the hub its events (`receive`). */
  local: boolean;
  /** A Redis connection to subscribe on (a dedicated one: subscribing takes it over); null without Redis. */
  redis: { client: RedisClient; channel: string; lastError(): string | null } | null;
  /** How often the log is polled while nothing else brings events (default 1,000 ms). */
  pollMs?: number;
  /** Told of each event handed to a subscriber, and of each subscriber dropped as a slow consumer (metrics). */
  observe?: { sent(): void; dropped(): void };
}

/** Events read from the log per statement while catching up. */
const PAGE = 500;
/** Without a live source the log is polled every pollMs; with one, every this many ms, to fill lost messages. */
const SAFETY_POLL_MS = 10_000;

interface Subscriber {
  request: SubscribeRequest;
  sink: EventSink;
  closed: boolean;
  /** Waiting for its replay of the log: live deliveries skip it (the replay sends them, in order). */
  replaying: boolean;
  /** The last id sent to it: nothing at or below it is sent again. */
  floor: bigint | null;
}

/**
 * Creates the hub. Every event is delivered to every subscriber once, in id order, whichever way it arrived
 * (this process's writers, Redis, the log): events at or below the last delivered id are dropped, and a gap
 * before a newer one is filled from the log first. Work runs one step at a time, so a resuming subscriber's
 * replay and the live events after it never interleave.
 * @example const hub = createEventHub({ sql, log, local: true, redis: null }); await hub.start()
 */
export function createEventHub(opts: EventHubOptions): EventHub {
  const { sql, log } = opts;
  const pollMs = opts.pollMs ?? 1_000;
  const subscribers = new Set<Subscriber>();
  const owners = new Map<string, number>();
  let lastId: bigint | null = null;
  let lastPollAt = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let closed = false;
  let work: Promise<void> = Promise.resolve();

  const redisOk = () => opts.redis !== null && opts.redis.client.status === 'ready';
  const source = (): EventFeedHealth['source'] => (opts.local ? 'local' : redisOk() ? 'redis' : 'database');

  /** Runs `step` after every step queued before it; a failure is logged, never stops the queue. */
  // A database outage fails every poll: it is logged when it starts and when it ends, not each second.
  let failing = false;
  const queue = (step: () => Promise<void> | void) => {
    work = work
      .then(step)
      .then(() => {
        if (failing) log.info({}, 'live events: the event log is readable again');
        failing = false;
      })
      .catch((err: unknown) => {
        if (!failing)
          log.warn(
            { err: (err as Error).message },
            'live events: reading the event log failed; retrying every poll',
          );
        failing = true;
      });
    return work;
  };

  /** Sends the event to one subscriber unless it had it (or one after it) already. */
  const send = (s: Subscriber, event: ChainEvent, id: bigint) => {
    if (s.closed || (s.floor !== null && id <= s.floor)) return;
    s.floor = id;
    const cut = eventFor(s.request.subscription, event);
    if (!cut) return;
    s.sink.event(cut);
    opts.observe?.sent();
  };

  const deliver = (event: ChainEvent) => {
    const id = BigInt(event.id);
    lastId = id;
    for (const s of subscribers) if (!s.replaying) send(s, event, id);
  };

  /** Delivers what the log holds after the last delivered id, up to `upTo` (inclusive) when given. */
  const catchUp = async (upTo?: bigint) => {
    if (lastId === null) return;
    for (;;) {
      const page = await readEventsAfter(sql, lastId.toString(), PAGE);
      for (const e of page) {
        if (upTo !== undefined && BigInt(e.id) > upTo) return;
        deliver(e);
      }
      if (page.length < PAGE) return;
    }
  };

  const ingest = (events: readonly ChainEvent[]) =>
    queue(async () => {
      const sorted = [...events].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      for (const e of sorted) {
        const id = BigInt(e.id);
        if (lastId !== null && id <= lastId) continue;
        if (lastId !== null && id > lastId + 1n) await catchUp(id - 1n);
        if (lastId !== null && id <= lastId) continue;
        deliver(e);
      }
    });

  /** Replays the log after `after` to one subscriber, up to what the hub has delivered. */
  const replay = async (s: Subscriber, after: bigint) => {
    const bounds = await eventLogBounds(sql);
    const oldest = bounds.oldest === null ? null : BigInt(bounds.oldest);
    if (oldest !== null && after < oldest - 1n) {
      s.sink.reset({
        reason: `the event log no longer holds the events after ${after}: it starts at ${oldest}; re-read what you need through the REST API`,
        oldestId: oldest.toString(),
      });
    }
    let cursor = after;
    while (!s.closed && lastId !== null && cursor < lastId) {
      const page = await readEventsAfter(sql, cursor.toString(), PAGE);
      for (const e of page) {
        const id = BigInt(e.id);
        if (id > (lastId ?? 0n) || s.closed) return;
        send(s, e, id);
        cursor = id;
      }
      if (page.length < PAGE) return;
    }
  };

  const release = (s: Subscriber, reason?: 'slow-consumer') => {
    if (s.closed) return;
    s.closed = true;
    if (reason === 'slow-consumer') opts.observe?.dropped();
    subscribers.delete(s);
    const n = (owners.get(s.request.owner) ?? 1) - 1;
    if (n <= 0) owners.delete(s.request.owner);
    else owners.set(s.request.owner, n);
  };

  const onMessage = (channel: string, message: string) => {
    if (channel !== opts.redis?.channel) return;
    try {
      const events = JSON.parse(message) as ChainEvent[];
      if (Array.isArray(events)) void ingest(events);
    } catch {
      log.warn({}, 'live events: an unreadable message on the Redis channel was ignored');
    }
  };

  const subscribeRedis = () => {
    const r = opts.redis;
    if (!r) return;
    r.client.subscribe(r.channel).catch((err: Error) => {
      log.debug({ err: err.message }, 'live events: subscribing on Redis failed; polling the log meanwhile');
    });
  };

  return {
    subscribe(request, sink) {
      if (closed) throw new ServiceUnavailableError('the server is shutting down; reconnect shortly', 1);
      const held = owners.get(request.owner) ?? 0;
      if (held >= request.maxConnections)
        throw new ApiError(
          429,
          `too many open event subscriptions for this caller (${request.maxConnections} allowed for its rate-limit bucket); close one, or use an API key for more`,
          { 'retry-after': '5' },
        );
      owners.set(request.owner, held + 1);
      const after = request.after === null ? null : BigInt(request.after);
      // Added at once, so no event delivered after this call is missed. A resume replays the log in the queue:
      // live deliveries skip the subscriber until then, and the replay runs up to the last delivered id, so it
      // receives every event after `after` in order, each once.
      const s: Subscriber = { request, sink, closed: false, replaying: after !== null, floor: after };
      subscribers.add(s);
      if (after !== null) {
        void queue(async () => {
          try {
            if (lastId !== null && after < lastId) await replay(s, after);
            s.replaying = false;
          } catch (err) {
            // Live events after a failed replay would skip what it could not send: end the stream instead.
            release(s);
            s.sink.close({
              code: 'error',
              reason: 'the event log could not be read; reconnect with Last-Event-ID',
            });
            throw err;
          }
        });
      }
      return { close: (reason) => release(s, reason) };
    },
    health() {
      return {
        source: source(),
        redis:
          opts.redis === null
            ? null
            : { ok: redisOk(), error: redisOk() ? null : (opts.redis.lastError() ?? 'not connected') },
        lastEventId: lastId === null ? null : lastId.toString(),
        subscribers: subscribers.size,
      };
    },
    receive(events) {
      if (events.length > 0) void ingest(events);
    },
    async start() {
      const bounds = await eventLogBounds(sql);
      lastId = bounds.latest === null ? 0n : BigInt(bounds.latest);
      if (opts.redis) {
        opts.redis.client.on('message', onMessage);
        opts.redis.client.on('ready', subscribeRedis);
        if (opts.redis.client.status === 'ready') subscribeRedis();
      }
      timer = setInterval(() => {
        const now = Date.now();
        const live = opts.local || redisOk();
        if (live && now - lastPollAt < SAFETY_POLL_MS) return;
        lastPollAt = now;
        void queue(() => catchUp());
      }, pollMs);
      timer.unref();
    },
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      timer = null;
      for (const s of [...subscribers]) {
        release(s);
        s.sink.close({
          code: 'shutdown',
          reason: 'the server is shutting down; reconnect with Last-Event-ID',
        });
      }
      opts.redis?.client.off('message', onMessage);
      opts.redis?.client.off('ready', subscribeRedis);
      await work;
    },
  };
}
