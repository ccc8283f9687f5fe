import { describe, expect, it } from 'vitest';
import { clientGroup } from './client-group.js';
import { bucketFor, defaultRateLimitPolicy, parseTierLimits, resetAt } from './rate-limit-policy.js';

describe('clientGroup', () => {
  it('keeps IPv4 addresses, groups IPv6 by /64 and unwraps IPv4-mapped addresses', () => {
    expect(clientGroup('203.0.113.9')).toBe('203.0.113.9');
    expect(clientGroup('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('2001:0DB8:0001:0002:ffff::1')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('2001:db8:1:2::9')).toBe(clientGroup('2001:db8:1:2:aaaa:bbbb:cccc:dddd'));
    expect(clientGroup('2001:db8:1:3::9')).not.toBe(clientGroup('2001:db8:1:2::9'));
    expect(clientGroup('::1')).toBe('0:0:0:0::/64');
    expect(clientGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientGroup('[2001:db8::1]')).toBe('2001:db8:0:0::/64');
    expect(clientGroup('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientGroup('64:ff9b:1:2::198.51.100.7')).toBe('64:ff9b:1:2::/64');
  });

  it('keeps anything else as short printable text', () => {
    expect(clientGroup(null)).toBe('unknown');
    expect(clientGroup('')).toBe('unknown');
    expect(clientGroup('999.1.1.1')).toBe('other:999.1.1.1');
    expect(clientGroup('1:2:3')).toBe('other:1:2:3');
    expect(clientGroup('1::2::3')).toBe('other:1::2::3');
    expect(clientGroup(`evil\u0000${'x'.repeat(200)}`)).toMatch(/^other:evil\?x{59}$/);
  });
});

describe('rate-limit policy', () => {
  const policy = { ...defaultRateLimitPolicy, tiers: parseTierLimits('pro:6000, partner:20000') };

  it('gives keys their own bucket, limited by tier, and anonymous callers one per client group', () => {
    expect(bucketFor(policy, { type: 'key', keyId: 'abc', name: 'n', tier: 'pro' }, '1.2.3.4')).toEqual({
      name: 'key:abc',
      kind: 'pro',
      limit: 6000,
    });
    expect(bucketFor(policy, { type: 'key', keyId: 'abc', name: 'n', tier: 'gold' }, null).limit).toBe(1200);
    expect(bucketFor(policy, { type: 'key', keyId: 'x', name: 'n', tier: 'constructor' }, null).limit).toBe(
      1200,
    );
    expect(bucketFor(policy, { type: 'anonymous' }, '2001:db8::1')).toEqual({
      name: 'anon:2001:db8:0:0::/64',
      kind: 'anonymous',
      limit: 120,
    });
  });

  it('parses tier lists and names the bad entry', () => {
    expect(parseTierLimits('')).toEqual({});
    expect(parseTierLimits('pro:1,')).toEqual({ pro: 1 });
    expect(() => parseTierLimits('pro')).toThrow(/"pro"/);
    expect(() => parseTierLimits('pro:0')).toThrow(/below 1/);
    expect(() => parseTierLimits('pro:1,pro:2')).toThrow(/twice/);
    expect(() => parseTierLimits('Pro Plan:5')).toThrow(/not <tier>:<requests>/);
  });

  it('rounds the reset up to whole seconds', () => {
    expect(resetAt(1_000_500, 60_000)).toBe(1061);
    expect(resetAt(1_000_000, 0)).toBe(1000);
  });
});
