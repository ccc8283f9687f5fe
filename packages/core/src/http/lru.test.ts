import { describe, expect, it } from 'vitest';
import { Lru } from './lru.js';

describe('Lru', () => {
  it('evicts the least recently used beyond its bound, and drops stale entries from the cold end', () => {
    const lru = new Lru<number>(3);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect(lru.get('a')).toBe(1);
    lru.set('d', 4);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.size).toBe(3);
    // Order from cold to warm: c, a, d. Dropping stops at the first entry that is not stale.
    lru.dropWhile((v) => v !== 1);
    expect(lru.get('c')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('d')).toBe(4);
    lru.dropWhile(() => true);
    expect(lru.size).toBe(0);
  });
});
