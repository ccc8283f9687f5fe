import type { ChainEvent, EventTopic } from '@explorer/core';
import { ExplorerApiError } from '../errors/api-error.js';
import { ExplorerError } from '../errors/explorer-error.js';
import { ExplorerStreamClosedError } from '../errors/stream-closed-error.js';
import { ExplorerValidationError } from '../errors/validation-error.js';
import { operations } from '../operations.js';
import { buildUrl, type Connection, type RetryInfo, type RetryPolicy } from '../transport.js';
import { type EventSourceMessage, OversizedEventError, readMessages } from './read-messages.js';

/** The operation id a subscription's errors and `onRetry` name: core's id of the event stream. */
export const SUBSCRIBE_OPERATION = 'getEvents';

/** Where the event stream is served. */
export const EVENTS_PATH = operations.getEvents.path;

/** The longest event read, in characters: far above the largest the API sends (a capped mempool event). */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;

const DECIMAL = /^[0-9]+$/;

/** What `onReset` is told: the server no longer holds every event after the id the subscription resumed from. */
export interface EventsReset {
  /** The server's words. */
  reason: string;
  /** The oldest event id the server holds: the stream goes on from there. Null when it did not say. */
  oldestId: string | null;
  /** The id the subscription asked to resume after (the last one it had yielded). */
  lastEventId: string | null;
}

/** Options of `client.events.subscribe`. */
export interface SubscribeOptions {
  /** Kinds of event (default, by the server: `block` and `reorg`); naming `addresses` adds `address`. */
  topics?: readonly EventTopic[];
  /** Addresses whose activity to receive (as `address` events, cut to these addresses). */
  addresses?: readonly string[];
  /** Resume after this event id (a decimal string, e.g. one saved from `subscription.lastEventId`). */
  lastEventId?: string | null;
  /** Ends the iteration (quietly, without an error) and the request in flight. */
  signal?: AbortSignal;
  /**
   * Called when the server no longer holds the events after the id resumed from: the events in between are
   * gone from its log, and the stream goes on from the oldest it holds. Fetch what you need over the REST API.
   */
  onReset?: (reset: EventsReset) => void;
  /** Called before each reconnection wait (default: the client's `onRetry`). */
  onRetry?: (info: RetryInfo) => void;
  /**
   * Failed connection attempts in a row allowed before the iteration throws. Default: the client's
   * `retry.limit` until the stream has opened once, then unlimited (as EventSource does).
   */
  reconnectLimit?: number;
}

/** A subscription: iterate it with `for await`; it remembers the last event id it yielded. */
export interface EventSubscription extends AsyncIterable<ChainEvent> {
  /** The id of the last event yielded (else the `lastEventId` given): what to resume from later. */
  readonly lastEventId: string | null;
}

interface State {
  last: string | null;
}

/**
 * Subscribes to the live event stream (`GET /v1/events`, server-sent events). Iterating opens the stream and
 * yields each event once, in id order; after a dropped connection or a server `close` it reconnects with the
 * last id it yielded (exponential backoff with jitter, from the server's `retry:`), and drops any event it has
 * already yielded. Breaking out of the loop, or aborting `signal`, ends the request.
 * @example
 * for await (const event of subscribeEvents(connection, { topics: ['block'] })) console.log(event.id, event.type)
 */
export function subscribeEvents(conn: Connection, options: SubscribeOptions = {}): EventSubscription {
  const start = options.lastEventId ?? null;
  if (start !== null && !DECIMAL.test(start))
    throw new TypeError(`lastEventId must be a decimal event id, got ${JSON.stringify(start)}`);
  const state: State = { last: start };
  return {
    get lastEventId() {
      return state.last;
    },
    [Symbol.asyncIterator]: () => run(conn, options, state),
  };
}

/** The query of one connection: the subscription, and where to resume. */
function queryOf(o: SubscribeOptions, last: string | null): Record<string, string | undefined> {
  return {
    topics: o.topics?.length ? o.topics.join(',') : undefined,
    addresses: o.addresses?.length ? o.addresses.join(',') : undefined,
    // The query form rather than the Last-Event-ID header: a custom header would need a CORS preflight the
    // browser may be refused, and the server takes either.
    lastEventId: last ?? undefined,
  };
}

async function* run(
  conn: Connection,
  options: SubscribeOptions,
  state: State,
): AsyncGenerator<ChainEvent, void, undefined> {
  const stop = new AbortController();
  const outer = [conn.signal, options.signal].filter((s): s is AbortSignal => s !== undefined);
  const onAbort = () => stop.abort();
  if (outer.some((s) => s.aborted)) return;
  for (const s of outer) s.addEventListener('abort', onAbort, { once: true });
  const onRetry = options.onRetry ?? conn.onRetry;
  let opened = false;
  let failures = 0;
  let serverRetryMs: number | null = null;
  try {
    for (;;) {
      const query = queryOf(options, state.last);
      const url = buildUrl(conn.baseUrl, EVENTS_PATH, {}, query);
      // One controller per connection, so that a connection the server closed is let go of before the next.
      const attempt = new AbortController();
      const signal = AbortSignal.any([stop.signal, attempt.signal]);
      let why: ExplorerError;
      try {
        const res = await conn.openStream(SUBSCRIBE_OPERATION, EVENTS_PATH, query, signal);
        const body = eventStreamOf(res);
        opened = true;
        failures = 0;
        const messages = readMessages(body, {
          onRetry: (ms) => {
            serverRetryMs = ms;
          },
          maxBufferSize: MAX_EVENT_CHARS,
        });
        why = yield* deliver(messages, url, signal, options, state);
      } catch (err) {
        if (stop.signal.aborted) return;
        if (err instanceof OversizedEventError)
          throw new ExplorerValidationError(SUBSCRIBE_OPERATION, err.message, null);
        if (!(err instanceof ExplorerError) || !err.retryable) throw err;
        why = err;
      } finally {
        attempt.abort();
      }
      failures += 1;
      if (failures > (options.reconnectLimit ?? (opened ? Number.POSITIVE_INFINITY : conn.retry.limit)))
        throw why;
      const wait = waitBefore(why, failures, serverRetryMs, conn.retry);
      if (wait === null) throw why;
      onRetry?.({
        operationId: SUBSCRIBE_OPERATION,
        attempt: failures,
        status: why instanceof ExplorerApiError ? why.status : null,
        error: why,
        ...wait,
      });
      if (!(await sleep(wait.delayMs, stop.signal))) return;
    }
  } finally {
    for (const s of outer) s.removeEventListener('abort', onAbort);
    stop.abort();
  }
}

/**
 * Yields the new events of one connection; answers why it ended when the server closed it or it dropped.
 * Control events: `reset` goes to `onReset`, `close` ends the connection.
 */
async function* deliver(
  messages: AsyncIterable<EventSourceMessage>,
  url: string,
  signal: AbortSignal,
  options: SubscribeOptions,
  state: State,
): AsyncGenerator<ChainEvent, ExplorerStreamClosedError, undefined> {
  try {
    for await (const m of messages) {
      // Events parsed from the chunk read before an abort are not yielded after it.
      if (signal.aborted) throw signal.reason;
      if (m.event === 'close') return closedBy(url, m.data);
      if (m.event === 'reset') {
        options.onReset?.(resetOf(m.data, state.last));
        continue;
      }
      const event = eventOf(m);
      // Never twice: a resumed stream may repeat what this iteration has already yielded.
      if (state.last !== null && BigInt(event.id) <= BigInt(state.last)) continue;
      state.last = event.id;
      yield event;
    }
  } catch (err) {
    if (signal.aborted || err instanceof ExplorerError || err instanceof OversizedEventError) throw err;
    // What a runtime makes of a reset socket while reading a body varies (TypeError: terminated, network error).
    return new ExplorerStreamClosedError(url, null, 'the connection dropped', err);
  }
  return new ExplorerStreamClosedError(url, null, 'the connection ended');
}

/** The body of a 2xx answer, when it is an event stream. */
function eventStreamOf(res: Response): ReadableStream<Uint8Array> {
  const type = res.headers.get('content-type') ?? '';
  if (!/^text\/event-stream\b/i.test(type) || res.body === null) {
    res.body?.cancel().catch(() => {});
    throw new ExplorerValidationError(
      SUBSCRIBE_OPERATION,
      `expected an event stream (text/event-stream), got ${type || 'no content type'}`,
      null,
    );
  }
  return res.body;
}

/** The JSON of a control event's data, or an empty object when it has none. */
function controlData(data: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

function closedBy(url: string, data: string): ExplorerStreamClosedError {
  const d = controlData(data);
  const code = text(d.code) ?? 'unspecified';
  const reason = text(d.reason);
  return new ExplorerStreamClosedError(
    url,
    code,
    `the server closed it (${code})${reason ? `: ${reason}` : ''}`,
  );
}

function resetOf(data: string, last: string | null): EventsReset {
  const d = controlData(data);
  return {
    reason: text(d.reason) ?? 'the server no longer holds the events after the id asked for',
    oldestId: text(d.oldestId),
    lastEventId: last,
  };
}

/** A data event as a ChainEvent: JSON with a decimal id (the `id:` line's, else the JSON's) and a type. */
function eventOf(m: EventSourceMessage): ChainEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(m.data);
  } catch {
    throw new ExplorerValidationError(
      SUBSCRIBE_OPERATION,
      `the data of a ${m.event ?? 'message'} event is not JSON`,
      m.data,
    );
  }
  const e = parsed as { id?: unknown; type?: unknown } | null;
  const id = m.id ?? e?.id;
  if (
    typeof e !== 'object' ||
    e === null ||
    typeof e.type !== 'string' ||
    typeof id !== 'string' ||
    !DECIMAL.test(id)
  )
    throw new ExplorerValidationError(SUBSCRIBE_OPERATION, 'an event needs a decimal id and a type', parsed);
  return (e.id === id ? e : { ...e, id }) as ChainEvent;
}

/**
 * How long to wait before reconnecting, or null when the server asks for longer than the client waits:
 * Retry-After of a 429 or 503; else exponential backoff from the server's `retry:` (else `backoffMs`), capped
 * at `backoffLimitMs` (or the server's `retry:`, when longer), with jitter: between half and all of it, so
 * clients cut off together do not come back together.
 */
function waitBefore(
  why: ExplorerError,
  failures: number,
  serverRetryMs: number | null,
  policy: RetryPolicy,
): { delayMs: number; retryAfter: boolean } | null {
  if (
    why instanceof ExplorerApiError &&
    (why.status === 429 || why.status === 503) &&
    why.retryAfter !== null
  ) {
    const ms = why.retryAfter * 1000;
    return ms > policy.maxRetryAfterMs ? null : { delayMs: ms, retryAfter: true };
  }
  const base = serverRetryMs ?? policy.backoffMs;
  const full = Math.min(Math.max(policy.backoffLimitMs, base), base * 2 ** (failures - 1));
  return { delayMs: Math.round(full / 2 + (Math.random() * full) / 2), retryAfter: false };
}

/** Waits `ms`; false when `signal` aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const abort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', abort, { once: true });
  });
}
