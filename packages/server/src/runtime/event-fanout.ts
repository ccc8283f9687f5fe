import type { ChainEvent, Logger } from '@explorer/core';
import type { ServerConfig } from '../config/index.js';
import { connectRedis } from '../redis.js';
import type { Shutdown } from './shutdown.js';

/**
 * What this process's writers (indexer, mempool watcher) committed to the event log, handed to every listener
 * (Redis for the other replicas, the webhook worker, the API's event hub), in id order.
 */
export interface EventFanout {
  /** Hands a batch of committed events to every listener. */
  publish(events: ChainEvent[]): void;
  /** Adds a listener; listeners are told in the order they were added. */
  listen(listener: (events: ChainEvent[]) => void): void;
}

/**
 * The fan-out of this process's events; with Redis configured and an indexer running here, Redis's channel is
 * its first listener.
 */
export function createEventFanout(
  config: ServerConfig,
  log: Logger,
  shutdown: Shutdown,
  indexes: boolean,
): EventFanout {
  const listeners: ((events: ChainEvent[]) => void)[] = [];
  if (config.redisUrl && indexes) {
    const publisher = connectRedis(config.redisUrl, log, {
      commandTimeoutMs: config.redisCommandTimeoutMs,
      name: 'events publisher',
    });
    shutdown.add(() => publisher.close());
    // Replicas that miss a message (Redis down, a reconnect) read it from the log: nothing to retry here.
    listeners.push((events) => {
      publisher.client.publish(config.eventsChannel, JSON.stringify(events)).catch(() => {});
    });
  }
  return {
    publish(events) {
      for (const listener of listeners) listener(events);
    },
    listen: (listener) => void listeners.push(listener),
  };
}
