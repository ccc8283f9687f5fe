import type { ChainEvent } from '../schemas/events.js';
import type { EventFeed, EventLimits, EventSubscriptionHandle, SubscribeRequest } from './feed.js';

const encoder = new TextEncoder();
/** Each event's frame, encoded once however many streams send it (the hub hands them all the same object). */
const frames = new WeakMap<ChainEvent, Uint8Array>();

/** One Server-Sent Events frame: `id:` (when given), `event:` and a one-line JSON `data:`. */
export function sseFrame(type: string, data: unknown, id?: string): Uint8Array {
  return encoder.encode(
    `${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`,
  );
}

/** How long a dropped slow consumer's last frames may wait to be read before its connection is cut. */
const CLOSE_GRACE_MS = 1_000;

/**
 * A `text/event-stream` body over the feed: `retry:` and a comment first, then each event as a frame whose id
 * is its log id, keep-alive comments, and a `close` frame before the server ends it. The stream queues at most
 * `limits.maxQueueBytes` for a client that does not read; past that it is dropped as a slow consumer (told so
 * in a `close` frame, then cut), so a stalled client never grows the server's memory past that bound.
 * @example new Response(eventStream(feed, request, limits), { headers: { 'content-type': 'text/event-stream' } })
 */
export function eventStream(
  feed: EventFeed,
  request: SubscribeRequest,
  limits: EventLimits,
  hooks: {
    /** Told when the client is dropped as a slow consumer. */
    onDrop?: (info: { owner: string; reason: string }) => void;
    /** Ends the client's connection (the host's); without it the stream is errored. */
    cut?: () => void;
  } = {},
): ReadableStream<Uint8Array> {
  let handle: EventSubscriptionHandle | null = null;
  let keepAlive: ReturnType<typeof setInterval> | null = null;
  let ended = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stop = (reason?: 'slow-consumer') => {
    ended = true;
    if (keepAlive) clearInterval(keepAlive);
    keepAlive = null;
    handle?.close(reason);
  };
  const push = (chunk: Uint8Array) => {
    if (ended) return;
    // desiredSize = highWaterMark − queued bytes: below −maxQueueBytes the client has stopped reading.
    if ((controller.desiredSize ?? 0) < -limits.maxQueueBytes) {
      const reason = `the client read too slowly: more than ${limits.maxQueueBytes} bytes of events were waiting`;
      hooks.onDrop?.({ owner: request.owner, reason });
      controller.enqueue(sseFrame('close', { code: 'slow-consumer', reason }));
      stop('slow-consumer');
      const t = setTimeout(
        () => (hooks.cut ? hooks.cut() : controller.error(new Error(reason))),
        CLOSE_GRACE_MS,
      );
      (t as { unref?: () => void }).unref?.();
      return;
    }
    controller.enqueue(chunk);
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        c.enqueue(encoder.encode(`retry: ${limits.retryMs}\n: explorer live events\n\n`));
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 16 * 1024, size: (chunk) => chunk.byteLength },
  );
  // start() ran in the constructor. Subscribing may refuse (429) before any byte is sent: the caller answers
  // with the error envelope instead of a stream.
  handle = feed.subscribe(request, {
    event: (e: ChainEvent) => {
      let frame = frames.get(e);
      if (!frame) {
        frame = sseFrame(e.type, e, e.id);
        frames.set(e, frame);
      }
      push(frame);
    },
    reset: (info) => push(sseFrame('reset', info)),
    close: (info) => {
      if (ended) return;
      controller.enqueue(sseFrame('close', info));
      stop();
      controller.close();
    },
  });
  keepAlive = setInterval(() => push(encoder.encode(': ping\n\n')), limits.keepAliveMs);
  (keepAlive as { unref?: () => void }).unref?.();
  return stream;
}
