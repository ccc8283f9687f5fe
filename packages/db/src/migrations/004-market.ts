/**
 * Market data cached from an external provider: price snapshots (one row per vs-currency per refresh), the
 * latest price history per chart window, and the health of the cache (one row, written by the refresher).
 * Times the refresher knows are written from its clock, so tests can pin them.
 */
export const marketSchema = `
CREATE TABLE market_snapshots (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  fetched_at          timestamptz NOT NULL,
  provider            text NOT NULL,
  coin                text NOT NULL,
  vs_currency         text NOT NULL,
  price               double precision NOT NULL CHECK (price >= 0),
  change_24h          double precision,
  volume_24h          double precision,
  market_cap          double precision,
  provider_updated_at timestamptz,
  demo                boolean NOT NULL
);
CREATE INDEX market_snapshots_latest ON market_snapshots (provider, coin, vs_currency, fetched_at DESC, id DESC);
CREATE INDEX market_snapshots_fetched ON market_snapshots (fetched_at);

CREATE TABLE market_chart (
  provider      text NOT NULL,
  coin          text NOT NULL,
  vs_currency   text NOT NULL,
  days          integer NOT NULL CHECK (days IN (1, 7, 30, 90, 365)),
  fetched_at    timestamptz NOT NULL,
  refresh_ms    integer NOT NULL,
  stale_after_ms integer NOT NULL,
  demo          boolean NOT NULL,
  points        jsonb NOT NULL,
  PRIMARY KEY (provider, coin, vs_currency, days)
);

CREATE TABLE market_health (
  id                   smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  provider             text,
  coin                 text,
  demo                 boolean,
  vs_currencies        text[] NOT NULL DEFAULT '{}',
  refresh_interval_ms  integer,
  stale_after_ms       integer,
  last_attempt_at      timestamptz,
  last_attempt_ok      boolean,
  last_success_at      timestamptz,
  last_error_at        timestamptz,
  last_error           text,
  consecutive_failures integer NOT NULL DEFAULT 0,
  next_attempt_at      timestamptz
);
INSERT INTO market_health (id) VALUES (1);
`;
