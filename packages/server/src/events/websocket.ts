import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type ChainEvent,
  DEFAULT_TOPICS,
  type EventAdmission,
  type EventCloseCode,
  type EventTopic,
  type ExplorerApi,
  type Logger,
  parseSubscription,
  requestIdOf,
} from '@explorer/core';
import { type WebSocket, WebSocketServer } from 'ws';

/** The path the WebSocket is served at. */
export const WEBSOCKET_PATH = '/v1/ws';

/** Close codes the server ends a socket with (see docs/events.md). */
export const CLOSE_CODES = {
  normal: 1000,
  shutdown: 1001,
  tooBig: 1009,
  error: 1011,
  slowConsumer: 4008,
} as const;

/** Largest message a client may send, in bytes. */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** How long a dropped slow consumer's close frame may wait before the socket is cut. */
const CLOSE_GRACE_MS = 1_000;

/** What the WebSocket endpoint needs. */
export interface WebSocketDeps {
  /** Admits and subscribes a subscriber as `/v1/events` would (core's ExplorerApi.admitEvents). */
  admit: ExplorerApi['admitEvents'];
  /** The client address of an upgrade request (peer, or X-Forwarded-For behind a trusted proxy). */
  clientAddress(req: IncomingMessage): string | null;
  log: Logger;
  /** Bytes queued for one socket before it is dropped as a slow consumer. */
  maxQueueBytes: number;
  /** Interval of the server's pings; a socket that missed the previous pong is cut. */
  keepAliveMs: number;
}

interface ClientMessage {
  type?: unknown;
  topics?: unknown;
  addresses?: unknown;
}

const strings = (v: unknown): string[] | null =>
  v === undefined ? [] : Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;

/** Writes an HTTP refusal (the API's error envelope) on a socket that asked to upgrade, and ends it. */
function refuse(
  socket: Duplex,
  status: number,
  headers: Record<string, string>,
  body: string | Uint8Array | null,
): void {
  // Refusals are error envelopes (text); bytes are only ever an adapter's raw data.
  const text = typeof body === 'string' ? body : body ? Buffer.from(body).toString('utf8') : '';
  const lines = [
    `HTTP/1.1 ${status} ${status === 429 ? 'Too Many Requests' : status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : status === 503 ? 'Service Unavailable' : 'Bad Request'}`,
    ...Object.entries({
      ...headers,
      'content-length': String(Buffer.byteLength(text)),
      connection: 'close',
    }).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
}

/** The Web Request an upgrade request stands for (its URL and headers), for the API's admission. */
function webRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const value of Array.isArray(v) ? v : [v]) headers.append(k, value);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { headers });
}

/**
 * Serves live events over WebSocket at `/v1/ws` on the HTTP server: the upgrade is admitted as `/v1/events`
 * is (key, rate limit, the same query), then `subscribe` / `unsubscribe` / `ping` messages change what the
 * socket receives. Events arrive as `{ type: 'event', event }`. A socket whose unsent messages pass
 * `maxQueueBytes` is closed with 4008.
 * @example const ws = attachWebSocket(server, { admit: api.admitEvents, … }); await ws.close()
 */
export function attachWebSocket(server: Server, deps: WebSocketDeps): { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const alive = new WeakMap<WebSocket, boolean>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== WEBSOCKET_PATH) {
      refuse(
        socket,
        404,
        { 'content-type': 'text/plain' },
        `no WebSocket at ${path}; it is served at ${WEBSOCKET_PATH}`,
      );
      return;
    }
    socket.on('error', () => {});
    const request = webRequest(req);
    const url = new URL(request.url);
    // The URL may name the first subscription; without topics or addresses the socket starts with none.
    const named = url.searchParams.has('topics') || url.searchParams.has('addresses');
    const topics = new Set<EventTopic>();
    const addresses = new Set<string>();
    // The subscription is open before the handshake completes (so a refusal is an HTTP answer): what it
    // receives meanwhile waits here.
    const early: unknown[] = [];
    let send: (message: unknown) => void = (m) => early.push(m);
    let end: (code: number, reason: string) => void = () => socket.destroy();
    const sink = {
      event: (event: ChainEvent) => send({ type: 'event', event }),
      reset: (info: { reason: string; oldestId: string | null }) => send({ type: 'reset', ...info }),
      close: (info: { code: EventCloseCode; reason: string }) => {
        send({ type: 'close', ...info });
        end(info.code === 'shutdown' ? CLOSE_CODES.shutdown : CLOSE_CODES.error, info.reason);
      },
    };
    deps
      .admit(request, { clientAddress: deps.clientAddress(req) }, sink, (parsed) => {
        if (named) {
          for (const t of parsed.topics) topics.add(t);
          for (const a of parsed.addresses) addresses.add(a);
        }
        return { topics, addresses };
      })
      .then(
        (admitted) => {
          if (!admitted.ok) {
            refuse(socket, admitted.answer.status, admitted.answer.headers, admitted.answer.body);
            return;
          }
          wss.handleUpgrade(req, socket, head, (ws) => {
            const socketEnd = open(ws, admitted, topics, addresses);
            send = socketEnd.send;
            end = socketEnd.end;
            for (const m of early.splice(0)) send(m);
          });
        },
        (err: unknown) => {
          deps.log.error({ err, requestId: requestIdOf(request.headers) }, 'websocket upgrade failed');
          socket.destroy();
        },
      );
  };

  /** Serves one admitted socket: its messages, its sends (bounded), its end. */
  function open(
    ws: WebSocket,
    admitted: Extract<EventAdmission, { ok: true }>,
    topics: Set<EventTopic>,
    addresses: Set<string>,
  ): { send(message: unknown): void; end(code: number, reason: string): void } {
    const { request, handle, feed } = admitted;
    let dropped = false;
    const sendJson = (message: unknown) => {
      if (dropped || ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > deps.maxQueueBytes) {
        dropped = true;
        deps.log.warn(
          { owner: request.owner, buffered: ws.bufferedAmount },
          'websocket dropped: the client read too slowly',
        );
        handle.close('slow-consumer');
        ws.close(CLOSE_CODES.slowConsumer, 'slow consumer: too many unsent events');
        setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
        return;
      }
      ws.send(JSON.stringify(message));
    };
    const current = () => ({ topics: [...topics], addresses: [...addresses] });
    sendJson({ type: 'welcome', ...current(), lastEventId: feed.health().lastEventId });
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    ws.on('close', () => handle.close());
    ws.on('error', () => handle.close());
    ws.on('message', (data, isBinary) => {
      let message: ClientMessage;
      try {
        if (isBinary) throw new Error('binary');
        message = JSON.parse(String(data)) as ClientMessage;
      } catch {
        sendJson({
          type: 'error',
          error: 'messages must be JSON text: {"type":"subscribe","topics":["block"]}',
        });
        return;
      }
      if (message.type === 'ping') return sendJson({ type: 'pong' });
      if (message.type !== 'subscribe' && message.type !== 'unsubscribe') {
        sendJson({ type: 'error', error: 'type must be subscribe, unsubscribe or ping' });
        return;
      }
      const t = strings(message.topics);
      const a = strings(message.addresses);
      if (t === null || a === null) {
        sendJson({ type: 'error', error: 'topics and addresses must be arrays of strings' });
        return;
      }
      if (message.type === 'unsubscribe') {
        for (const x of t) topics.delete(x as EventTopic);
        for (const x of a) addresses.delete(x);
        if (addresses.size === 0) topics.delete('address');
        sendJson({ type: 'unsubscribed', ...current() });
        return;
      }
      try {
        const next = parseSubscription(
          t.length > 0 ? t : a.length > 0 ? ['address'] : DEFAULT_TOPICS,
          [...addresses, ...a],
          request.maxAddresses,
        );
        for (const x of next.topics) topics.add(x);
        for (const x of next.addresses) addresses.add(x);
        sendJson({ type: 'subscribed', ...current() });
      } catch (err) {
        sendJson({ type: 'error', error: (err as Error).message });
      }
    });
    return {
      send: sendJson,
      end: (code, reason) => ws.close(code, reason.slice(0, 120)),
    };
  }

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, deps.keepAliveMs);
  heartbeat.unref();

  server.on('upgrade', onUpgrade);
  return {
    async close() {
      clearInterval(heartbeat);
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.close(CLOSE_CODES.shutdown, 'the server is shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
