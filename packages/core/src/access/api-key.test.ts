import { describe, expect, it } from 'vitest';
import {
  API_KEY_LENGTH,
  generateApiKey,
  hashApiKey,
  hashesEqual,
  isApiKeyId,
  parseApiKey,
} from './api-key.js';

describe('API keys', () => {
  it('generates recognisable keys whose checksum and id parse back', () => {
    const { id, key, hash } = generateApiKey();
    expect(key).toMatch(/^exk_[a-z2-7]{10}_[a-z2-7]{38}$/);
    expect(key).toHaveLength(API_KEY_LENGTH);
    expect(parseApiKey(key)).toEqual({ id });
    expect(isApiKeyId(id)).toBe(true);
    expect(hash).toBe(hashApiKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(generateApiKey().key).not.toBe(key);
  });

  it('refuses every single-character typo, truncation and foreign shape without a lookup', () => {
    const { key } = generateApiKey();
    let accepted = 0;
    for (let i = 4; i < key.length; i++) {
      if (key[i] === '_') continue;
      for (const c of 'abcdefghijklmnopqrstuvwxyz234567') {
        if (c === key[i]) continue;
        if (parseApiKey(key.slice(0, i) + c + key.slice(i + 1))) accepted++;
      }
    }
    // 30 checksum bits: a single accepted typo among ~1,500 would be a broken checksum.
    expect(accepted).toBe(0);
    for (const bad of [
      '',
      key.slice(0, -1),
      `${key}a`,
      key.toUpperCase(),
      key.replace('exk_', 'exq_'),
      "exk_' OR 1=1 --",
      `${key.slice(0, 20)}\u0000${key.slice(21)}`,
      'x'.repeat(10_000),
    ]) {
      expect(parseApiKey(bad)).toBeNull();
    }
  });

  it('compares hashes only when equal in full', () => {
    const a = hashApiKey('a');
    expect(hashesEqual(a, a)).toBe(true);
    expect(hashesEqual(a, hashApiKey('b'))).toBe(false);
    expect(hashesEqual(a, a.slice(0, 62))).toBe(false);
    expect(hashesEqual('', '')).toBe(false);
  });
});
