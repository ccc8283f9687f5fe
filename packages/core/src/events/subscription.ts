import { BadRequestError } from '../errors.js';
import { type ChainEvent, EVENT_TOPICS, type EventTopic } from '../schemas/events.js';

/** What one client (a stream, a socket, a webhook) receives: these topics, and these addresses' activity. */
export interface Subscription {
  topics: ReadonlySet<EventTopic>;
  addresses: ReadonlySet<string>;
}

/** Topics a subscription that names none receives. */
export const DEFAULT_TOPICS: readonly EventTopic[] = ['block', 'reorg'];

const ADDRESS = /^[0-9A-Za-z]{14,100}$/;

/** Splits a comma-separated list (also accepts repeated values), trimmed, without empties. */
function listOf(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/**
 * The subscription a client asked for: topics (default block and reorg) and addresses; naming addresses
 * implies the `address` topic. A bad topic or address, or more addresses than allowed, is a 400.
 * @example parseSubscription(['block,mempool'], ['prl1p…'], 20)
 */
export function parseSubscription(
  topics: readonly string[],
  addresses: readonly string[],
  maxAddresses: number,
): Subscription {
  const named = listOf(topics);
  const unknown = named.filter((t) => !(EVENT_TOPICS as readonly string[]).includes(t));
  if (unknown.length > 0)
    throw new BadRequestError(
      `topics must be a comma-separated list of ${EVENT_TOPICS.join(', ')}; unknown: ${unknown.slice(0, 3).join(', ')}`,
    );
  const addrs = [...new Set(listOf(addresses))];
  const bad = addrs.find((a) => !ADDRESS.test(a));
  if (bad !== undefined)
    throw new BadRequestError(`addresses must be addresses; not one: ${bad.slice(0, 100)}`);
  if (addrs.length > maxAddresses)
    throw new BadRequestError(
      `at most ${maxAddresses} addresses may be tracked by one subscription of this rate-limit bucket (${addrs.length} named)`,
    );
  const set = new Set<EventTopic>(named.length > 0 ? (named as EventTopic[]) : DEFAULT_TOPICS);
  if (addrs.length > 0) set.add('address');
  if (set.has('address') && addrs.length === 0)
    throw new BadRequestError('the address topic needs addresses: name the addresses to track');
  return { topics: set, addresses: new Set(addrs) };
}

/**
 * The event as this subscription receives it, or null when it receives nothing of it: an `address` event is
 * cut to the subscription's addresses.
 */
export function eventFor(sub: Subscription, event: ChainEvent): ChainEvent | null {
  if (!sub.topics.has(event.type)) return null;
  if (event.type !== 'address') return event;
  const activity = event.data.activity.filter((a) => sub.addresses.has(a.address));
  if (activity.length === 0) return null;
  if (activity.length === event.data.activity.length) return event;
  return { ...event, data: { ...event.data, activity } };
}
