import type { ChainEvent } from '@explorer/core';
import {
  blockEvents,
  collectGarbage,
  type EventStreamServer,
  listen,
  serveEventStream,
  waitFor,
} from '@explorer/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createExplorerClient } from '../client.js';
import { ExplorerApiError } from '../errors/api-error.js';
import { ExplorerNetworkError } from '../errors/network-error.js';
import { ExplorerStreamClosedError } from '../errors/stream-closed-error.js';
import { ExplorerValidationError } from '../errors/validation-error.js';
import type { ExplorerClientOptions, RetryInfo } from '../transport.js';

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(handle: Parameters<typeof serveEventStream>[0]): Promise<EventStreamServer> {
  const s = await serveEventStream(handle);
  servers.push(s);
  return s;
}

/** A client of `server` with quick reconnects (the test server's `retry:` is 20 ms). */
const clientOf = (server: { url: string }, opts: Partial<ExplorerClientOptions> = {}) =>
  createExplorerClient({ baseUrl: server.url, retry: { backoffMs: 5, backoffLimitMs: 50 }, ...opts });

/** The first `n` events of an iteration, then a break. */
async function take(events: AsyncIterable<ChainEvent>, n: number): Promise<ChainEvent[]> {
  const out: ChainEvent[] = [];
  for await (const e of events) {
    out.push(e);
    if (out.length === n) break;
  }
  return out;
}

const ids = (events: readonly ChainEvent[]) => events.map((e) => e.id);
const LOG = blockEvents(12);
/** The log's events after `id` (all of them for null). */
const after = (id: string | null) => LOG.filter((e) => id === null || BigInt(e.id) > BigInt(id));

describe('client.events.subscribe', () => {
  it('yields the events in order, parsed, asking with the subscription and the API key; break ends the request', async () => {
    const server = await serve((c) => {
      c.open();
      c.raw(': ping\n\n');
      for (const e of LOG.slice(0, 3)) c.send(e);
    });
    const client = clientOf(server, { apiKey: 'ek_test' });
    const sub = client.events.subscribe({ topics: ['block', 'reorg'], addresses: ['prl1qexampleexample0'] });
    const got = await take(sub, 3);
    expect(got).toEqual(LOG.slice(0, 3));
    expect(sub.lastEventId).toBe('3');
    const [c] = server.connections;
    await c!.closed; // the break let go of the connection
    expect(server.connections).toHaveLength(1);
    expect(c!.topics).toEqual(['block', 'reorg']);
    expect(c!.addresses).toEqual(['prl1qexampleexample0']);
    expect(c!.lastEventId).toBeNull();
    expect(c!.headers['x-api-key']).toBe('ek_test');
    expect(c!.headers.accept).toBe('text/event-stream');
  });

  it('after a dropped connection resumes after the last id it yielded: nothing missed, nothing twice', async () => {
    const server = await serve((c) => {
      c.open();
      if (c.n === 1) {
        for (const e of LOG.slice(0, 3)) c.send(e);
        // Half of event 4 arrives, then the network goes: the half must not be yielded.
        c.raw(`id: 4\nevent: block\ndata: ${JSON.stringify(LOG[3]).slice(0, 40)}`);
        c.drop();
        return;
      }
      // A server that resends from before the id asked for: the client must drop what it already has.
      for (const e of after('1')) c.send(e);
    });
    const retries: RetryInfo[] = [];
    const sub = clientOf(server).events.subscribe({ onRetry: (r) => retries.push(r) });
    const got = await take(sub, 8);
    expect(ids(got)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(got[3]).toEqual(LOG[3]);
    expect(server.connections.map((c) => c.lastEventId)).toEqual([null, '3']);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({
      operationId: 'getEvents',
      attempt: 1,
      status: null,
      retryAfter: false,
    });
    expect(retries[0]!.error).toBeInstanceOf(ExplorerStreamClosedError);
    expect((retries[0]!.error as ExplorerStreamClosedError).code).toBeNull();
  });

  it('reconnects after a close event it did not ask for, resuming after its last id', async () => {
    const server = await serve((c) => {
      c.open();
      const from = after(c.lastEventId);
      if (c.n === 1) {
        for (const e of from.slice(0, 2)) c.send(e);
        c.close({ reason: 'the server is shutting down', code: 'shutdown' });
        return;
      }
      for (const e of from.slice(0, 2)) c.send(e);
    });
    const retries: RetryInfo[] = [];
    const sub = clientOf(server).events.subscribe({ onRetry: (r) => retries.push(r) });
    expect(ids(await take(sub, 4))).toEqual(['1', '2', '3', '4']);
    expect(server.connections.map((c) => c.lastEventId)).toEqual([null, '2']);
    const closed = retries[0]!.error as ExplorerStreamClosedError;
    expect(closed).toBeInstanceOf(ExplorerStreamClosedError);
    expect(closed.code).toBe('shutdown');
    expect(closed.message).toContain('the server is shutting down');
  });

  it('resumes from a given lastEventId and tells onReset when the server no longer holds what follows it', async () => {
    const server = await serve((c) => {
      c.open();
      c.reset({ reason: 'the log no longer holds the events after 2', oldestId: '9' });
      for (const e of after('8')) c.send(e);
    });
    const resets: unknown[] = [];
    const sub = clientOf(server).events.subscribe({ lastEventId: '2', onReset: (r) => resets.push(r) });
    expect(ids(await take(sub, 2))).toEqual(['9', '10']);
    expect(server.connections[0]!.lastEventId).toBe('2');
    expect(resets).toEqual([
      { reason: 'the log no longer holds the events after 2', oldestId: '9', lastEventId: '2' },
    ]);
  });

  it('compares ids as integers past 2^53 and drops an event older than the last yielded', async () => {
    const big = ['9007199254740993', '9007199254740992', '9007199254740994'];
    const server = await serve((c) => {
      c.open();
      for (const id of big) c.send({ ...LOG[0]!, id });
    });
    expect(ids(await take(clientOf(server).events.subscribe(), 2))).toEqual([big[0], big[2]]);
  });

  it('raises a 400 envelope as ExplorerApiError without retrying; a 401 too', async () => {
    for (const [status, message] of [
      [400, 'the address topic needs addresses: name the addresses to track'],
      [401, 'unknown API key'],
    ] as const) {
      const server = await serve((c) => c.refuse(status, message));
      const sub = clientOf(server, { retry: 3 }).events.subscribe({ topics: ['address'] });
      const err = await take(sub, 1).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExplorerApiError);
      expect(err).toMatchObject({ status, message, requestId: 'events-1', operationId: 'getEvents' });
      expect(server.connections).toHaveLength(1);
    }
  });

  it('waits the Retry-After of a 429 and then subscribes', async () => {
    const server = await serve((c) => {
      if (c.n === 1) return c.refuse(429, 'rate limit exceeded; retry after 1 s', { 'retry-after': '1' });
      c.open();
      c.send(LOG[0]!);
    });
    const retries: RetryInfo[] = [];
    const got = await take(clientOf(server).events.subscribe({ onRetry: (r) => retries.push(r) }), 1);
    expect(ids(got)).toEqual(['1']);
    expect(server.connections).toHaveLength(2);
    expect(retries).toMatchObject([{ status: 429, delayMs: 1000, retryAfter: true, attempt: 1 }]);
  });

  it('throws at once a 503 whose Retry-After is longer than the client waits', async () => {
    const server = await serve((c) => c.refuse(503, 'the event hub is starting', { 'retry-after': '120' }));
    const sub = clientOf(server, { retry: { maxRetryAfterMs: 5_000 } }).events.subscribe();
    const err = await take(sub, 1).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ExplorerApiError', status: 503, retryAfter: 120 });
    expect(server.connections).toHaveLength(1);
  });

  it('gives up before the first connection after the client’s retry limit; once open, reconnectLimit bounds it', async () => {
    const gone = await listen(() => {});
    const url = gone.url;
    await gone.close();
    const refused = createExplorerClient({ baseUrl: url, retry: { limit: 1, backoffMs: 5 } });
    const err = await take(refused.events.subscribe(), 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExplorerNetworkError);

    const server = await serve((c) => {
      if (c.n > 1) return c.refuse(502, 'bad gateway');
      c.open();
      c.send(LOG[0]!);
      c.drop();
    });
    const got: ChainEvent[] = [];
    const bounded = clientOf(server).events.subscribe({ reconnectLimit: 2 });
    const end = await (async () => {
      for await (const e of bounded) got.push(e);
    })().catch((e: unknown) => e);
    expect(ids(got)).toEqual(['1']);
    expect(end).toMatchObject({ name: 'ExplorerApiError', status: 502 });
    expect(server.connections.map((c) => c.lastEventId)).toEqual([null, '1', '1']);
  });

  it('ends quietly when its signal aborts, while reading and while waiting to reconnect, and lets go of the request', async () => {
    const server = await serve((c) => {
      c.open();
      c.send(LOG[0]!);
    });
    const ac = new AbortController();
    const got: ChainEvent[] = [];
    for await (const e of clientOf(server).events.subscribe({ signal: ac.signal })) {
      got.push(e);
      setTimeout(() => ac.abort(), 10); // the loop now waits for an event that never comes
    }
    expect(ids(got)).toEqual(['1']);
    await server.connections[0]!.closed;

    const failing = await serve((c) => c.refuse(503, 'unavailable'));
    const waiting = new AbortController();
    const sub = clientOf(failing, { retry: { backoffMs: 60_000, backoffLimitMs: 60_000 } }).events.subscribe({
      signal: waiting.signal,
      onRetry: () => waiting.abort(),
    });
    expect(await take(sub, 1)).toEqual([]);
    expect(failing.connections).toHaveLength(1);
  });

  it('ends when its signal aborts during a long-lived read after a garbage collection, and lets go of the request', async () => {
    // A stream that stays open: the read in flight when the signal aborts waits for an event that never comes.
    // The collection is what a long watch meets sooner or later; Node's fetch forgets the signal of a Request
    // it is given once that Request is collected, so the abort must not depend on it.
    const server = await serve((c) => {
      c.open();
      c.send(LOG[0]!);
    });
    for (const where of ['subscribe', 'client'] as const) {
      const ac = new AbortController();
      const client = clientOf(server, where === 'client' ? { signal: ac.signal } : {});
      const got: ChainEvent[] = [];
      let retries = 0;
      const ended = (async () => {
        for await (const e of client.events.subscribe({
          ...(where === 'subscribe' ? { signal: ac.signal } : {}),
          onRetry: () => {
            retries += 1;
          },
        }))
          got.push(e);
      })();
      await waitFor('the first event', async () => got.length === 1);
      await collectGarbage();
      ac.abort();
      await ended;
      expect(ids(got), where).toEqual(['1']);
      expect(retries, where).toBe(0);
      await server.connections.at(-1)!.closed;
    }
  });

  it('refuses a 2xx that is not an event stream, and a data line that is not an event', async () => {
    const json = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    servers.push(json);
    const err = await take(clientOf(json).events.subscribe(), 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExplorerValidationError);
    expect((err as Error).message).toContain(
      'expected an event stream (text/event-stream), got application/json',
    );

    const garbled = await serve((c) => {
      c.open();
      c.raw('id: 1\nevent: block\ndata: {not json\n\n');
    });
    const bad = await take(clientOf(garbled).events.subscribe(), 1).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ExplorerValidationError);
    expect(garbled.connections).toHaveLength(1);
  });

  it('refuses a lastEventId that is not a decimal id, and request(getEvents), before sending anything', async () => {
    const client = createExplorerClient({ baseUrl: 'http://127.0.0.1:9' });
    expect(() => client.events.subscribe({ lastEventId: '12a' })).toThrow(TypeError);
    await expect(client.request('getEvents')).rejects.toThrow(
      'getEvents is an event stream: use client.events.subscribe()',
    );
  });
});
