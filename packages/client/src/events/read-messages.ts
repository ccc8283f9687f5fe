import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type { EventSourceMessage } from 'eventsource-parser';

/** What reading one event-stream body needs besides the body. */
export interface ReadMessagesOptions {
  /** Told each `retry:` the server sends (milliseconds). */
  onRetry: (ms: number) => void;
  /** Longest event (or unterminated line) buffered, in characters; past it reading fails. */
  maxBufferSize: number;
}

/** The body held an event longer than the reader buffers: the server is not speaking the format. */
export class OversizedEventError extends Error {
  override name = 'OversizedEventError';
}

/**
 * The messages of a `text/event-stream` body as they arrive, parsed by eventsource-parser (fetch streams only,
 * so it runs in browsers and Node alike). Ends when the body ends; a half-received event is dropped, as the
 * format requires. Stopping the iteration cancels the body.
 * @example for await (const m of readMessages(res.body, { onRetry, maxBufferSize: 1 << 24 })) console.log(m.event, m.data)
 */
export async function* readMessages(
  body: ReadableStream<Uint8Array>,
  opts: ReadMessagesOptions,
): AsyncGenerator<EventSourceMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const queue: EventSourceMessage[] = [];
  let oversized = false;
  const parser = createParser({
    onEvent: (m) => queue.push(m),
    onRetry: opts.onRetry,
    // Unknown fields and a bad retry value are ignored, as EventSource does; only a runaway buffer stops.
    onError: (e) => {
      if (e.type === 'max-buffer-size-exceeded') oversized = true;
    },
    maxBufferSize: opts.maxBufferSize,
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
      if (oversized) throw new OversizedEventError(`an event longer than ${opts.maxBufferSize} characters`);
      while (queue.length > 0) yield queue.shift()!;
    }
  } finally {
    // Whether the body ended, failed or the consumer stopped: let go of the connection without waiting on it.
    reader.cancel().catch(() => {});
  }
}
