import type { ChainEvent } from '../schemas/events.js';
import type { Subscription } from './subscription.js';

/** Why the server ends a subscriber's stream. */
export type EventCloseCode = 'slow-consumer' | 'shutdown' | 'error';

/** What a subscriber is told: its events in id order, a gap in the log, the end of its stream. */
export interface EventSink {
  /** The next event for this subscriber, already cut to its subscription. */
  event(event: ChainEvent): void;
  /** The log no longer holds every event after the id asked for; what follows starts at `oldestId`. */
  reset(info: { reason: string; oldestId: string | null }): void;
  /** The feed ends this subscription (it will send nothing more). */
  close(info: { code: EventCloseCode; reason: string }): void;
}

/** A subscriber's hold on the feed; close() ends it (idempotent). */
export interface EventSubscriptionHandle {
  /** Ends the subscription; `slow-consumer` when its transport dropped it for reading too slowly (counted). */
  close(reason?: 'slow-consumer'): void;
}

/** How the feed is doing, for /v1/status. */
export interface EventFeedHealth {
  /**
   * Where this process hears of new events: `redis` (pub/sub, shared by every replica), `local` (the indexer runs
   * in this process), `database` (polling the log: Redis is down or not configured and no indexer runs here).
   */
  source: 'redis' | 'local' | 'database';
  /** The Redis link; null when REDIS_URL is not set. */
  redis: { ok: boolean; error: string | null } | null;
  /** The latest event id this process has delivered; null before any. */
  lastEventId: string | null;
  /** Open subscriptions (SSE streams and WebSocket subscriptions) of this process. */
  subscribers: number;
}

/** A request to subscribe. */
export interface SubscribeRequest {
  subscription: Subscription;
  /** Deliver the events after this id first (resume); null: only what happens from now on. */
  after: string | null;
  /** The rate-limit bucket the subscriber counts against (`key:<id>` or `ip:<address>`). */
  owner: string;
  /** Most open subscriptions `owner` may hold; more is refused with a 429. */
  maxConnections: number;
}

/** The live event feed a process serves its subscribers from. */
export interface EventFeed {
  /**
   * Subscribes `sink`. Throws RateLimitedError when `owner` already holds `maxConnections` subscriptions.
   * @example const handle = feed.subscribe({ subscription, after: null, owner: 'ip:127.0.0.1', maxConnections: 5 }, sink)
   */
  subscribe(request: SubscribeRequest, sink: EventSink): EventSubscriptionHandle;
  /** The feed's health. */
  health(): EventFeedHealth;
}

/** Limits on live subscriptions, per rate-limit bucket. */
export interface EventLimits {
  /** Open streams/sockets per caller: anonymous callers per client address, key holders per key. */
  maxConnections: { anonymous: number; key: number };
  /** Addresses one subscription may track. */
  maxAddresses: { anonymous: number; key: number };
  /** Bytes queued for one subscriber before it is dropped as a slow consumer. */
  maxQueueBytes: number;
  /** Interval of keep-alive comments (SSE) and pings (WebSocket), in milliseconds. */
  keepAliveMs: number;
  /** The reconnection delay SSE clients are told (`retry:`), in milliseconds. */
  retryMs: number;
}

/** Default limits on live subscriptions. */
export const DEFAULT_EVENT_LIMITS: EventLimits = {
  maxConnections: { anonymous: 5, key: 100 },
  maxAddresses: { anonymous: 20, key: 1_000 },
  maxQueueBytes: 1024 * 1024,
  keepAliveMs: 15_000,
  retryMs: 2_000,
};

/** The bucket a caller's subscriptions count against, and its limits. */
export function subscriberBucket(
  identity: { type: 'anonymous' } | { type: 'key'; keyId: string },
  clientAddress: string | null,
  limits: EventLimits,
): { owner: string; maxConnections: number; maxAddresses: number } {
  if (identity.type === 'key')
    return {
      owner: `key:${identity.keyId}`,
      maxConnections: limits.maxConnections.key,
      maxAddresses: limits.maxAddresses.key,
    };
  return {
    owner: `ip:${clientAddress ?? 'unknown'}`,
    maxConnections: limits.maxConnections.anonymous,
    maxAddresses: limits.maxAddresses.anonymous,
  };
}
