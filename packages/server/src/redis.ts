import type { Logger } from '@explorer/core';
import { Redis } from 'ioredis';

/**
 * What the explorer asks of a Redis client (ioredis's satisfies it). Declared here rather than naming ioredis's
 * type, so that the package's declarations do not reach ioredis's: a TypeScript program importing
 * `@explorer/server` then compiles under `--strict` whatever ioredis's own declarations need.
 */
export interface RedisClient {
  /** `ready` once connected (ioredis's connection states otherwise). */
  readonly status: string;
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string): Promise<unknown>;
  on(event: string, listener: (...args: any[]) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
  disconnect(): void;
}

/** A Redis connection tuned to fail fast rather than queue (rate limits, live events). */
export interface RedisLink {
  client: RedisClient;
  /** The last connection error, for the outage log line (never the URL, which may carry a password). */
  lastError(): string | null;
  /** Resolves once connected, or after `ms` without (the in-memory fallback counts meanwhile). */
  ready(ms: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The Redis connection's defaults (the server's `REDIS_COMMAND_TIMEOUT_MS` default too). */
export const REDIS_DEFAULTS = { commandTimeoutMs: 500 } as const;

/**
 * Connects to Redis. Commands never wait in an offline queue and time out after `commandTimeoutMs`, so an
 * unreachable or hung Redis sends its users to their fallback at once instead of holding them (the rate
 * limiter to its in-memory count, live events to the event log).
 * Reconnects forever in the background. `name` labels its errors in the debug log.
 * @example const redis = connectRedis('redis://127.0.0.1:6379', log)
 */
export function connectRedis(
  url: string,
  log: Logger,
  opts: { commandTimeoutMs?: number; name?: string } = {},
): RedisLink {
  let lastError: string | null = null;
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: opts.commandTimeoutMs ?? REDIS_DEFAULTS.commandTimeoutMs,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(100 * times, 2_000),
    // Key names of this connection are already prefixed by the limiter.
    lazyConnect: false,
  });
  // Without a listener ioredis prints every failed reconnect to stderr; the limiter logs outages once.
  client.on('error', (err: Error) => {
    lastError = err.message.slice(0, 200);
    log.debug({ err: lastError }, `${opts.name ?? 'rate-limit'} redis error`);
  });
  client.on('ready', () => {
    lastError = null;
  });
  return {
    client,
    lastError: () => lastError,
    ready(ms) {
      if (client.status === 'ready') return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          client.off('ready', onReady);
          resolve(ok);
        };
        const onReady = () => done(true);
        const timer = setTimeout(() => done(false), ms);
        client.on('ready', onReady);
      });
    },
    async close() {
      client.disconnect();
    },
  };
}
