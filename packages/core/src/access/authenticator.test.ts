import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { generateApiKey } from './api-key.js';
import { createKeyAuthenticator, MALFORMED_KEY, type StoredApiKey, UNKNOWN_KEY } from './authenticator.js';

function setup(cacheMs = 30_000) {
  const { id, key, hash } = generateApiKey();
  const row: StoredApiKey = { id, name: 'acme', tier: 'pro', keyHash: hash, revoked: false };
  const lookups: string[] = [];
  const touched: string[] = [];
  let now = 1_000_000;
  const authenticate = createKeyAuthenticator({
    lookup: async (wanted) => {
      lookups.push(wanted);
      return wanted === id ? row : null;
    },
    touch: async (t) => {
      touched.push(t);
    },
    cacheMs,
    clock: () => now,
  });
  return { id, key, row, lookups, touched, authenticate, advance: (ms: number) => (now += ms) };
}

async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return { status: (err as ApiError).status, message: (err as ApiError).message };
  }
  throw new Error('expected a refusal');
}

describe('createKeyAuthenticator', () => {
  it('verifies a stored key and caches it, so a hot key costs one lookup per period', async () => {
    const s = setup();
    const identity = { type: 'key', keyId: s.id, name: 'acme', tier: 'pro' };
    expect(await s.authenticate(s.key)).toEqual(identity);
    expect(await s.authenticate(s.key)).toEqual(identity);
    expect(s.lookups).toEqual([s.id]);
    expect(s.touched).toEqual([s.id]);
    s.advance(30_001);
    await s.authenticate(s.key);
    expect(s.lookups).toEqual([s.id, s.id]);
  });

  it('refuses malformed keys without a lookup, and never echoes the key', async () => {
    const s = setup();
    const typo = `${s.key.slice(0, -1)}${s.key.endsWith('a') ? 'b' : 'a'}`;
    for (const bad of [typo, 'hello', `${s.key} `]) {
      const r = await refusal(s.authenticate(bad));
      expect(r).toEqual({ status: 401, message: MALFORMED_KEY });
    }
    expect(s.lookups).toEqual([]);
  });

  it('refuses unknown keys and wrong secrets for a known id', async () => {
    const s = setup();
    expect(await refusal(s.authenticate(generateApiKey().key))).toEqual({
      status: 401,
      message: UNKNOWN_KEY,
    });
    // Same id, another secret (with a valid checksum): the hash comparison refuses it.
    const sameId = Buffer.from([...s.id].map((c) => 'abcdefghijklmnopqrstuvwxyz234567'.indexOf(c)));
    const other = generateApiKey((n) => (n === 10 ? sameId : Buffer.alloc(n, 7)));
    expect(other.id).toBe(s.id);
    await s.authenticate(s.key); // the right key is cached now; the wrong one must not ride on it
    expect(await refusal(s.authenticate(other.key))).toEqual({ status: 401, message: UNKNOWN_KEY });
  });

  it('honours a revoke once the cache period has passed', async () => {
    const s = setup(5_000);
    await s.authenticate(s.key);
    s.row.revoked = true;
    await s.authenticate(s.key); // still cached: the documented bound
    s.advance(5_001);
    expect(await refusal(s.authenticate(s.key))).toEqual({ status: 401, message: UNKNOWN_KEY });
  });
});
