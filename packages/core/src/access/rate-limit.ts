import { RateLimitedError } from '../errors.js';
import type { Identity, RateLimitState } from '../route.js';

/** Takes a request's points (one unless it says otherwise) from the caller's bucket. */
export interface RateLimiter {
  consume(
    identity: Identity,
    clientAddress: string | null,
    points?: number,
  ): Promise<RateLimitState & { allowed: boolean }>;
  /** Whether the shared store answers (for /v1/status); absent → not reported. */
  health?(): { store: string; ok: boolean; error: string | null };
}

/** One request counted: its bucket after it, the headers that say so, and the refusal when it was over. */
export interface RateLimitCount {
  state: RateLimitState;
  /** `x-ratelimit-limit`, `-remaining` and `-reset` (lower-case names). */
  headers: Record<string, string>;
  /** The 429 to answer with (Retry-After in its own `headers`) when the bucket was empty; null otherwise. */
  limited: RateLimitedError | null;
}

/** The caller of a request that named no key, or whose key was refused. */
export const ANONYMOUS: Identity = Object.freeze({ type: 'anonymous' });

/** The X-RateLimit-* headers of a bucket's state. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.reset),
  };
}

/**
 * Counts one request: the only place a request is counted, by the API and by the server alike.
 *
 * How requests are counted: every request but a CORS preflight takes `points` from exactly one bucket — one
 * point, unless its route prices the work it asks for (RouteDefinition.cost: a many-address list costs
 * 1 + ⌈n / 10⌉ for n addresses, see addressListCost). The bucket is the key's (by tier) when a valid key was
 * presented, else the anonymous bucket of the client's address group. The
 * API counts every request it answers — before routing, so unknown paths (404), wrong methods (405), refused
 * keys (401/400, counted as anonymous) and the refusals a host hands it (414, 431 …, see refuseRequest) count
 * and carry the headers like any other answer. The server counts the answers it gives without the API (`/`,
 * `/docs`, its own 414 outside /v1, a 500 the API never saw) against the anonymous bucket, so every response
 * carries X-RateLimit-*. Past the limit the answer is 429 with Retry-After (seconds until the window resets,
 * at least 1).
 * @example const { headers, limited } = await countRequest(limiter, ANONYMOUS, '203.0.113.9', Date.now())
 */
export async function countRequest(
  limiter: RateLimiter,
  identity: Identity,
  clientAddress: string | null,
  now: number,
  points = 1,
): Promise<RateLimitCount> {
  const { allowed, ...state } = await limiter.consume(identity, clientAddress, points);
  const limited = allowed ? null : new RateLimitedError(Math.max(1, state.reset - Math.floor(now / 1000)));
  return { state, headers: rateLimitHeaders(state), limited };
}
