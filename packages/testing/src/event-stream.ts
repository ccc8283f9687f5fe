import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { ChainEvent } from '@explorer/core';
import { listen, type TestServer } from './http.js';

/** One connection to the test event stream: what the client asked for, and the ways to answer it. */
export interface EventStreamConnection {
  /** 1 for the first connection. */
  n: number;
  url: URL;
  headers: IncomingHttpHeaders;
  /** Where the client resumes: the Last-Event-ID header, else the lastEventId query; null for neither. */
  lastEventId: string | null;
  /** The comma lists of the query, split. */
  topics: string[];
  addresses: string[];
  /** Answers with the API's error envelope `{ ok: false, error, meta }`, before any stream. */
  refuse(status: number, message: string, headers?: Record<string, string>): void;
  /** Starts the stream as the API does: 200 text/event-stream, `retry:` and a comment line. */
  open(retryMs?: number): void;
  /** Sends one event: `id:`, `event:` (its type) and one `data:` line of JSON. */
  send(event: ChainEvent): void;
  /** Sends a `reset` control event (no id). */
  reset(data: { reason: string; oldestId: string | null }): void;
  /** Sends a `close` control event (no id) and ends the response. */
  close(data: { reason: string; code: string }): void;
  /** Writes text as it is (a keep-alive, half an event…). */
  raw(text: string): void;
  /** Cuts the connection without a word (a dropped network), once what was written has left. */
  drop(): void;
  /** Whether the client has gone away. */
  readonly gone: boolean;
  /** Resolves when the client goes away (it aborted, or the response ended). */
  readonly closed: Promise<void>;
}

/** A local server of `/v1/events` whose every connection the test answers by hand. */
export interface EventStreamServer extends TestServer {
  /** Every connection so far, in order. */
  connections: EventStreamConnection[];
}

const split = (v: string | null) => (v ? v.split(',').filter((s) => s.length > 0) : []);

function connectionOf(n: number, url: URL, headers: IncomingHttpHeaders, res: ServerResponse) {
  let gone = false;
  const closed = new Promise<void>((resolve) =>
    res.on('close', () => {
      gone = true;
      resolve();
    }),
  );
  const write = (text: string) => {
    if (!gone) res.write(text);
  };
  const header = headers['last-event-id'];
  const c: EventStreamConnection = {
    n,
    url,
    headers,
    lastEventId: (typeof header === 'string' ? header : null) ?? url.searchParams.get('lastEventId'),
    topics: split(url.searchParams.get('topics')),
    addresses: split(url.searchParams.get('addresses')),
    refuse(status, message, extra = {}) {
      res.writeHead(status, { 'content-type': 'application/json', ...extra });
      res.end(
        JSON.stringify({
          ok: false,
          error: message,
          meta: {
            requestId: `events-${n}`,
            indexedTip: 0,
            nodeHeight: 0,
            servedAt: new Date().toISOString(),
          },
        }),
      );
    },
    open(retryMs = 20) {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-request-id': `events-${n}`,
      });
      write(`retry: ${retryMs}\n: connected\n\n`);
    },
    send(event) {
      write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    },
    reset(data) {
      write(`event: reset\ndata: ${JSON.stringify(data)}\n\n`);
    },
    close(data) {
      write(`event: close\ndata: ${JSON.stringify(data)}\n\n`);
      res.end();
    },
    raw: write,
    drop() {
      if (gone) return;
      if (!res.headersSent) return void res.socket?.destroy();
      res.write('', () => res.socket?.destroy());
    },
    get gone() {
      return gone;
    },
    closed,
  };
  return c;
}

/**
 * Serves `GET /v1/events` in the API's SSE format on 127.0.0.1, each connection answered by `handle` (events in
 * order, drops, `close` and `reset` control events, error envelopes), for the SDK's and the CLI's tests until
 * they can run against the real endpoint. Other paths answer a 404 envelope.
 * @example const s = await serveEventStream((c) => { c.open(); for (const e of blockEvents(3)) c.send(e); c.drop(); })
 */
export async function serveEventStream(
  handle: (connection: EventStreamConnection) => void | Promise<void>,
): Promise<EventStreamServer> {
  const connections: EventStreamConnection[] = [];
  const server = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const c = connectionOf(connections.length + 1, url, req.headers, res);
    if (url.pathname !== '/v1/events') return c.refuse(404, `no route ${url.pathname}`);
    connections.push(c);
    Promise.resolve(handle(c)).catch((err: Error) => {
      if (!res.headersSent) c.refuse(500, String(err?.message ?? err));
      else c.drop();
    });
  });
  return { ...server, connections };
}

/** A made-up 64-hex hash: `salt` then `n` in hex. */
const hex = (n: number, salt: string) => `${salt}${Math.max(0, n).toString(16).padStart(63, '0')}`;

/**
 * `count` block events with ids and heights from `firstId` on, whose data has every member of a block (made
 * up, consistent with itself): what the event stream sends for new blocks.
 * @example blockEvents(3, 10).map((e) => e.id) // ['10', '11', '12']
 */
export function blockEvents(count: number, firstId = 1): ChainEvent[] {
  return Array.from({ length: count }, (_, i): ChainEvent => {
    const height = firstId + i;
    return {
      id: String(height),
      type: 'block',
      at: new Date(Date.UTC(2026, 0, 1, 0, height)).toISOString(),
      data: {
        height,
        hash: hex(height, 'b'),
        previousHash: hex(height - 1, 'b'),
        nextHash: null,
        time: 1_767_225_600 + height * 60,
        medianTime: 1_767_225_600 + height * 60 - 300,
        confirmations: 1,
        txCount: 1 + (height % 7),
        inputCount: 1 + (height % 7),
        outputCount: 2 + (height % 7),
        size: 300 + height,
        strippedSize: null,
        weight: null,
        version: 536870912,
        merkleRoot: hex(height, 'c'),
        bits: '1d00ffff',
        nonce: null,
        difficulty: 1,
        chainwork: (height + 1).toString(16),
        subsidy: '5000000000',
        fees: String(height * 100),
        reward: String(5_000_000_000 + height * 100),
        valueOut: '0',
        miner: { address: null, label: null },
        pool: { id: 'unknown', name: 'Unknown', link: null },
        coinbaseTag: '',
        coinbaseHex: '',
        certificate: null,
      },
    };
  });
}
