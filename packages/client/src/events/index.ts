export {
  EVENTS_PATH,
  type EventSubscription,
  type EventsReset,
  SUBSCRIBE_OPERATION,
  type SubscribeOptions,
  subscribeEvents,
} from './subscribe.js';
