/** Why a market-data provider call failed. */
export type MarketProviderErrorKind =
  | 'timeout'
  | 'unreachable'
  | 'rate-limited'
  | 'http'
  | 'malformed'
  | 'shape'
  | 'aborted';

/** A market-data provider call failed; the refresher keeps the last stored data and backs off. */
export class MarketProviderError extends Error {
  override readonly name = 'MarketProviderError';
  constructor(
    readonly kind: MarketProviderErrorKind,
    message: string,
    readonly details: {
      /** HTTP status, when the provider answered. */
      status?: number;
      /** How long the provider asked us to wait (Retry-After), in milliseconds. */
      retryAfterMs?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: details.cause });
  }

  /** The provider's Retry-After, in milliseconds, if it sent one. */
  get retryAfterMs(): number | undefined {
    return this.details.retryAfterMs;
  }
}

/**
 * Parses a Retry-After header (delay in seconds, or an HTTP date) into milliseconds from `now`;
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
