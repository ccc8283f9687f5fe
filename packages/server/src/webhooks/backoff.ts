/** The retry schedule's two knobs. */
export interface BackoffOptions {
  /** Wait after the first failed attempt. */
  baseMs: number;
  /** Longest wait. */
  maxMs: number;
}

/**
 * How long to wait after failed attempt number `attempt` (from 1): the base, doubled for each earlier
 * failure, at most the cap (5 s, 10 s, 20 s … 1 h with the defaults).
 * @example retryDelayMs(3, { baseMs: 5_000, maxMs: 3_600_000 }) // 20_000
 */
export function retryDelayMs(attempt: number, opts: BackoffOptions): number {
  const doublings = Math.min(Math.max(attempt - 1, 0), 40);
  return Math.min(opts.baseMs * 2 ** doublings, opts.maxMs);
}
