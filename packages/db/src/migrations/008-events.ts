/**
 * Live events and webhooks.
 * - `events`: the ordered log the indexer appends to in the transaction that changes the chain (a block's
 *   `block` and `address` events, a rollback's `reorg`) or the mempool (`mempool`, unconfirmed `address`). Its
 *   ids order every event; API processes resume clients from it. It is bounded: the writer trims the oldest.
 *   Payloads are `json`, kept as written, so their members stay in the API's order.
 * - `mempool_state`: the latest mempool summary and fee estimates the indexer's watcher took, one row, so
 *   every API replica serves the same figures at the same moment.
 * - `webhooks` and `webhook_deliveries`: operator-managed endpoints and the outbox of their deliveries, filled
 *   in the same transaction as the event, so a delivery survives any crash between the two.
 */
export const eventsSchema = `
CREATE TABLE events (
  id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  topic   text NOT NULL CHECK (topic IN ('block', 'reorg', 'mempool', 'address')),
  at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  payload json NOT NULL
);

CREATE TABLE mempool_state (
  id         integer PRIMARY KEY CHECK (id = 1),
  taken_at   timestamptz NOT NULL,
  summary    jsonb NOT NULL,
  fees       jsonb NOT NULL
);

CREATE TABLE webhooks (
  id         text PRIMARY KEY,
  url        text NOT NULL,
  topics     text[] NOT NULL,
  addresses  text[] NOT NULL DEFAULT '{}',
  secret     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  removed_at timestamptz
);

CREATE TABLE webhook_deliveries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  webhook_id      text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id        bigint NOT NULL,
  topic           text NOT NULL,
  body            text NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_status     integer,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
`;
