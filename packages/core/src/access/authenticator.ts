import type { Authenticator } from '../api/identify.js';
import { SharedCache } from '../cache/shared-cache.js';
import { UnauthorizedError } from '../errors.js';
import type { Identity } from '../route.js';
import { hashApiKey, hashesEqual, parseApiKey } from './api-key.js';

/** A stored key as the authenticator needs it (never the key itself). */
export interface StoredApiKey {
  id: string;
  name: string;
  tier: string;
  /** SHA-256 (hex) of the full key. */
  keyHash: string;
  revoked: boolean;
}

/** Where the authenticator reads keys from; the server passes database queries. */
export interface KeyAuthenticatorDeps {
  /** The stored key with this id, or null. */
  lookup(id: string): Promise<StoredApiKey | null>;
  /** Records that a key was used (best effort; called at most once per cache period per key). */
  touch?(id: string): Promise<void>;
  /** How long a verified key is trusted without asking again, in milliseconds (default 30,000). */
  cacheMs?: number;
  /** Keys held in the cache (default 10,000). */
  cacheEntries?: number;
  /** Milliseconds since the epoch (tests pin it). */
  clock?: () => number;
}

/** The 401 messages: they say what is wrong without echoing the key. */
export const MALFORMED_KEY = 'API key is malformed';
export const UNKNOWN_KEY = 'API key is unknown or revoked';

/**
 * Verifies presented keys: format and checksum first (no lookup for a typo), then the stored hash by key id,
 * compared in constant time. Verified keys are cached for `cacheMs`, so a revoke takes effect within that
 * bound; failures are not cached, so a newly created key works at once.
 * @example const authenticate = createKeyAuthenticator({ lookup: (id) => findApiKey(sql, id) })
 */
export function createKeyAuthenticator(deps: KeyAuthenticatorDeps): Authenticator {
  const cacheMs = deps.cacheMs ?? 30_000;
  const clock = deps.clock ?? Date.now;
  // Keyed by the key's hash, not its id: a wrong secret for a cached id never hits the cache. Refusals are
  // never kept, so a newly created key works at once; concurrent requests with one key share one lookup.
  const verified = new SharedCache<Identity>({ maxEntries: deps.cacheEntries ?? 10_000, ttlMs: cacheMs });

  return async (key) => {
    const parsed = parseApiKey(key);
    if (!parsed) throw new UnauthorizedError(MALFORMED_KEY);
    const hash = hashApiKey(key);
    return verified.load(hash, clock(), async () => {
      const stored = await deps.lookup(parsed.id);
      // Compare even for an unknown id, so the time taken does not tell ids apart.
      const equal = hashesEqual(hash, stored?.keyHash ?? '0'.repeat(64));
      if (!stored || stored.revoked || !equal) throw new UnauthorizedError(UNKNOWN_KEY);
      deps.touch?.(stored.id).catch(() => {});
      return { type: 'key', keyId: stored.id, name: stored.name, tier: stored.tier };
    }).value;
  };
}
