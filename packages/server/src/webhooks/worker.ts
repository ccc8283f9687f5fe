import type { Logger } from '@explorer/core';
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  claimDueDeliveries,
  recordDeliveryAttempt,
  type Sql,
} from '@explorer/db';
import { retryDelayMs } from './backoff.js';
import { postDelivery } from './deliver.js';

/** What the delivery worker reads and writes, and its schedule. */
export interface WebhookWorkerOptions {
  sql: Sql;
  log: Logger;
  /** How long a receiver has to answer (default 10,000 ms). */
  timeoutMs?: number;
  /** Wait after the first failed attempt, doubling after each further one (default 5,000 ms). */
  retryBaseMs?: number;
  /** Longest wait between attempts (default 1 h). */
  retryMaxMs?: number;
  /** Age after which a delivery that still fails is given up (default 24 h). */
  maxAgeMs?: number;
  /** How long a claimed delivery is held; more than timeoutMs (default 60,000 ms). */
  leaseMs?: number;
  /** Deliveries in flight at once (default 8). */
  concurrency?: number;
  /** How often due deliveries are looked for when nothing wakes the worker (default 1,000 ms). */
  pollMs?: number;
  /**
   * Told how each attempt ended (metrics): `delivered`, `retry` (failed, or cut short, and attempted again
   * later) or `failed` (given up at its maximum age).
   */
  onAttempt?: (outcome: WebhookAttemptOutcome) => void;
}

/** How one delivery attempt ended, as the worker reports it. */
export type WebhookAttemptOutcome = 'delivered' | 'retry' | 'failed';

/** The running worker: wake() when deliveries were queued, stop() before the database closes. */
export interface WebhookWorker {
  start(): void;
  /** Looks for due deliveries now (the runtime calls it when events were committed). */
  wake(): void;
  /** Stops claiming, ends requests in flight and records them as due at once, so a restart retries them. */
  stop(): Promise<void>;
}

/** The worker's defaults: what an option not given is, and the `WEBHOOK_*` settings' defaults. */
export const WEBHOOK_WORKER_DEFAULTS = {
  timeoutMs: 10_000,
  retryBaseMs: 5_000,
  retryMaxMs: 3_600_000,
  maxAgeMs: 24 * 3_600_000,
  leaseMs: 60_000,
  concurrency: 8,
  pollMs: 1_000,
} as const;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0];

/**
 * The webhook delivery worker: claims due deliveries from the outbox (polled, and at once when woken), POSTs
 * each signed, and records the outcome; failures are retried with exponential backoff until the maximum age.
 * @example const worker = createWebhookWorker({ sql, log }); worker.start(); …; await worker.stop()
 */
export function createWebhookWorker(opts: WebhookWorkerOptions): WebhookWorker {
  const { sql, log } = opts;
  const defaults = WEBHOOK_WORKER_DEFAULTS;
  const timeoutMs = opts.timeoutMs ?? defaults.timeoutMs;
  const backoff = {
    baseMs: opts.retryBaseMs ?? defaults.retryBaseMs,
    maxMs: opts.retryMaxMs ?? defaults.retryMaxMs,
  };
  const maxAgeMs = opts.maxAgeMs ?? defaults.maxAgeMs;
  const leaseMs = opts.leaseMs ?? defaults.leaseMs;
  const concurrency = opts.concurrency ?? defaults.concurrency;
  const pollMs = opts.pollMs ?? defaults.pollMs;
  if (leaseMs <= timeoutMs) throw new RangeError('the lease must be longer than the timeout');

  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | null = null;
  let wokenMeanwhile = false;

  async function attempt(d: ClaimedDelivery): Promise<void> {
    const result = await postDelivery(d, { timeoutMs, signal: stopping.signal });
    const stopped = stopping.signal.aborted;
    let outcome: AttemptOutcome;
    if (result.ok) outcome = { result: 'delivered', httpStatus: result.status };
    else {
      const retryInMs = stopped ? 0 : retryDelayMs(d.attempt, backoff);
      outcome = { result: 'retry', httpStatus: result.status, error: result.error, retryInMs, maxAgeMs };
      const fields = {
        webhookId: d.webhookId,
        deliveryId: d.id,
        eventId: d.eventId,
        attempt: d.attempt,
        status: result.status,
        error: result.error,
      };
      if (stopped)
        log.info(fields, 'webhook delivery cut short by shutdown; it is retried on the next start');
      else log.warn({ ...fields, retryInMs }, 'webhook delivery failed');
    }
    let reported: WebhookAttemptOutcome = result.ok ? 'delivered' : 'retry';
    try {
      const status = await recordDeliveryAttempt(sql, d.id, outcome);
      if (status === 'failed') {
        reported = 'failed';
        log.warn(
          { webhookId: d.webhookId, deliveryId: d.id, eventId: d.eventId, attempts: d.attempt },
          'webhook delivery given up: still failing at its maximum age',
        );
      }
    } catch (err) {
      // The lease still holds the delivery: it is attempted again once the lease runs out.
      log.warn(
        { webhookId: d.webhookId, deliveryId: d.id, err: message(err) },
        'webhook attempt not recorded',
      );
    }
    opts.onAttempt?.(reported);
  }

  /** Fills the free slots with due deliveries until none is due or every slot is busy. */
  async function pump(): Promise<void> {
    while (!stopping.signal.aborted) {
      const free = concurrency - inFlight.size;
      if (free <= 0) return;
      let claimed: ClaimedDelivery[];
      try {
        claimed = await claimDueDeliveries(sql, { limit: free, leaseMs });
      } catch (err) {
        log.warn({ err: message(err) }, 'webhook deliveries could not be claimed; trying again');
        return;
      }
      for (const d of claimed) {
        const running: Promise<void> = attempt(d).finally(() => {
          inFlight.delete(running);
          wake();
        });
        inFlight.add(running);
      }
      if (claimed.length < free) return;
    }
  }

  function wake(): void {
    if (!started || stopping.signal.aborted) return;
    if (pumping) {
      wokenMeanwhile = true;
      return;
    }
    clearTimeout(timer);
    pumping = pump().finally(() => {
      pumping = null;
      if (wokenMeanwhile) {
        wokenMeanwhile = false;
        wake();
      } else if (!stopping.signal.aborted) {
        timer = setTimeout(wake, pollMs);
        timer.unref();
      }
    });
  }

  return {
    start() {
      started = true;
      wake();
    },
    wake,
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      // A claim under way still hands its deliveries to attempts, which end at once and are recorded.
      await pumping;
      await Promise.allSettled([...inFlight]);
    },
  };
}
