import type { Identity } from '../route.js';
import { clientGroup } from './client-group.js';

/** How many requests each kind of caller may make per window. */
export interface RateLimitPolicy {
  /** Window length in seconds (fixed windows, starting at a bucket's first request). */
  windowSeconds: number;
  /** Requests per window of one anonymous client group (IPv4 address or IPv6 /64). */
  anonymous: number;
  /** Requests per window of a key whose tier has no limit of its own. */
  key: number;
  /** Requests per window by tier name; a tier not listed gets `key`. */
  tiers: Readonly<Record<string, number>>;
}

/** Defaults: 120 anonymous and 1,200 keyed requests a minute. */
export const defaultRateLimitPolicy: RateLimitPolicy = {
  windowSeconds: 60,
  anonymous: 120,
  key: 1200,
  tiers: {},
};

/** The bucket a request counts against: its store key and its limit. */
export interface Bucket {
  /** `anon:<client group>` or `key:<key id>`; the name `/v1/api/me` reports. */
  name: string;
  /** Which limit applies: `anonymous`, or the key's tier. */
  kind: string;
  limit: number;
}

/** The tier names a tier list may use. */
export const TIER_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/**
 * Parses `pro:6000,partner:20000` into a tier table; throws an Error naming the bad entry.
 * @example parseTierLimits('pro:6000, partner:20000') // { pro: 6000, partner: 20000 }
 */
export function parseTierLimits(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const m = /^([^:\s]+)\s*:\s*(\d{1,10})$/.exec(entry);
    if (!m || !TIER_NAME.test(m[1]!)) {
      throw new Error(`has an entry that is not <tier>:<requests> (got "${entry.slice(0, 40)}")`);
    }
    const n = Number(m[2]);
    if (n < 1) throw new Error(`gives tier ${m[1]} a limit below 1`);
    if (m[1]! in out) throw new Error(`names tier ${m[1]} twice`);
    out[m[1]!] = n;
  }
  return out;
}

/** The limit of a key's tier. */
export function tierLimit(policy: RateLimitPolicy, tier: string): number {
  return Object.hasOwn(policy.tiers, tier) ? policy.tiers[tier]! : policy.key;
}

/**
 * Chooses the bucket: one per key (limit by tier), else one per anonymous client group.
 * @example bucketFor(policy, { type: 'anonymous' }, '203.0.113.9') // { name: 'anon:203.0.113.9', kind: 'anonymous', limit: 120 }
 */
export function bucketFor(policy: RateLimitPolicy, identity: Identity, clientAddress: string | null): Bucket {
  if (identity.type === 'key') {
    return { name: `key:${identity.keyId}`, kind: identity.tier, limit: tierLimit(policy, identity.tier) };
  }
  return { name: `anon:${clientGroup(clientAddress)}`, kind: 'anonymous', limit: policy.anonymous };
}

/** Unix time (seconds, rounded up) at which a window ending `msBeforeNext` after `now` resets. */
export function resetAt(now: number, msBeforeNext: number): number {
  return Math.ceil((now + Math.max(0, msBeforeNext)) / 1000);
}
