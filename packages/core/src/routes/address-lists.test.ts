import { describe, expect, it } from 'vitest';
import { ADDRESS_LIST_LIMITS, addressListCost, addressListLimit } from './address-lists.js';
import { addressListSchema } from './params.js';

const addr = (i: number) => `dvt1q${String(i).padStart(4, '0')}${'x'.repeat(30)}`;

describe('many-address requests', () => {
  it('cost 1 + ⌈n / 10⌉ points for n distinct addresses, as sent', () => {
    const cost = (n: number, repeat = false) =>
      addressListCost(
        new URLSearchParams({
          addresses: Array.from({ length: n }, (_, i) => addr(repeat ? 0 : i)).join(','),
        }),
      );
    // Never more than the most any caller may name costs: junk past it is refused at the price of a full request.
    expect([0, 1, 10, 11, 50, 200, 201, 900].map((n) => cost(n))).toEqual([1, 2, 2, 3, 6, 21, 21, 21]);
    expect(cost(30, true)).toBe(2);
    expect(addressListCost(new URLSearchParams('addresses=a,,b,'))).toBe(2);
    expect(addressListCost(new URLSearchParams(''))).toBe(1);
  });

  it('are limited by the caller: 50 anonymous, 200 with an API key', () => {
    expect(addressListLimit({ type: 'anonymous' })).toBe(ADDRESS_LIST_LIMITS.anonymous);
    expect(addressListLimit({ type: 'key', keyId: 'k', name: 'n', tier: 'pro' })).toBe(200);
  });

  it('read a comma-separated list: each address checked as a single one, repeats dropped in place', () => {
    expect(addressListSchema.parse(`${addr(2)},${addr(1)}, ${addr(2)},`)).toEqual([addr(2), addr(1)]);
    const bad = addressListSchema.safeParse(`${addr(1)},not-one`);
    expect(bad.error?.issues[0]?.message).toBe(
      'addresses: "not-one" is not an address: address must be 14 to 130 letters and digits (a base58 or bech32 address)',
    );
    expect(addressListSchema.safeParse(' , ').error?.issues[0]?.message).toMatch(/at least one address/);
  });
});
