import { z } from 'zod';
import { BadRequestError, ServiceUnavailableError } from '../errors.js';
import { type EventLimits, type SubscribeRequest, subscriberBucket } from '../events/feed.js';
import { eventStream } from '../events/sse.js';
import { parseSubscription } from '../events/subscription.js';
import { defineRoute, type Identity } from '../route.js';
import { EVENT_TOPICS } from '../schemas/events.js';

const EVENT_ID = /^[0-9]{1,19}$/;
/** Why a process without an event feed refuses subscribers. */
export const EVENTS_UNAVAILABLE = 'live events are not served by this process';
const LAST_ID_MESSAGE =
  'Last-Event-ID (or lastEventId) must be an event id: the decimal id of an event received';

/** The query of `/v1/events` (and of the WebSocket's URL). */
export const eventsQuery = z.object({
  topics: z
    .string()
    .optional()
    .describe(
      `Comma-separated kinds of event: ${EVENT_TOPICS.join(', ')} (default block,reorg). Naming addresses implies address.`,
    ),
  addresses: z
    .string()
    .optional()
    .describe(
      'Comma-separated addresses whose activity to receive (confirmed and in the mempool): at most 20 anonymous, 1,000 with an API key.',
    ),
  lastEventId: z
    .string()
    .optional()
    .describe(
      'Resume after this event id (what the Last-Event-ID header says; the header wins when both are sent).',
    ),
});

/**
 * The subscription a request for live events asks for, in the caller's bucket: topics and addresses (400 when
 * malformed or too many), and the id to resume after (`Last-Event-ID`, else `lastEventId`).
 */
export function eventSubscribeRequest(
  query: z.output<typeof eventsQuery>,
  headers: Headers,
  identity: Identity,
  clientAddress: string | null,
  limits: EventLimits,
): SubscribeRequest & { maxAddresses: number } {
  const bucket = subscriberBucket(identity, clientAddress, limits);
  const subscription = parseSubscription(
    query.topics === undefined ? [] : [query.topics],
    query.addresses === undefined ? [] : [query.addresses],
    bucket.maxAddresses,
  );
  const last = headers.get('last-event-id') ?? query.lastEventId ?? null;
  const after = last === null || last.trim() === '' ? null : last.trim();
  if (after !== null && !EVENT_ID.test(after)) throw new BadRequestError(LAST_ID_MESSAGE);
  return { subscription, after, ...bucket };
}

/** /v1/events: the live event stream as Server-Sent Events. */
export const eventRoutes = [
  defineRoute({
    id: 'getEvents',
    path: '/v1/events',
    tag: 'Events',
    summary: 'Live events (Server-Sent Events)',
    description:
      'A `text/event-stream` of the chain’s live events, each with `id:` (its position in the event log), `event:` (its type) and `data:` (a ChainEvent as JSON): `block` (a new block’s summary), `reorg` (fork point, blocks removed and added), `mempool` (txids added and removed, the fee histogram and estimates), `address` (tracked addresses’ activity, confirmed or unconfirmed, with their balance). Reconnect with `Last-Event-ID` to receive every event after that id once; when the log no longer holds them, an `event: reset` says so and the stream continues from its oldest event. The server sends `: ping` comments every 15 s, and an `event: close` frame (data `{ code, reason }`) before it ends a stream: `slow-consumer` when more than 1 MiB waited for a client, `shutdown`. Open streams per caller are limited (5 per client address anonymous, 100 per API key; 429 past that). Also served over WebSocket at `/v1/ws` (see the docs).',
    query: eventsQuery,
    response: {},
    stream: {
      contentType: 'text/event-stream',
      description:
        'Server-Sent Events: `retry:` and a comment, then one frame per event (`id`, `event`, `data` = a ChainEvent as JSON).',
    },
    async handler(ctx) {
      if (ctx.events === null) throw new ServiceUnavailableError(EVENTS_UNAVAILABLE, 30);
      const request = eventSubscribeRequest(
        ctx.query,
        ctx.headers,
        ctx.identity,
        ctx.clientAddress,
        ctx.config.events,
      );
      return { body: {}, stream: eventStream(ctx.events, request, ctx.config.events) };
    },
  }),
] as const;
