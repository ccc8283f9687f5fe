import { describe, expect, it } from 'vitest';
import { coinbaseTag, createDefinitions, parsePools, UNKNOWN_POOL } from './pools.js';

const hex = (s: string) => Buffer.from(s, 'latin1').toString('hex');

describe('pool attribution', () => {
  const pools = parsePools([
    { id: 1, name: 'Foundry USA', addresses: ['addrF'], tags: ['/Foundry USA Pool/'], link: 'https://f' },
    { id: 2, name: 'ViaBTC', slug: 'viabtc', addresses: [], regexes: ['/ViaBTC/'] },
    { id: 3, name: 'Bad Regex', addresses: [], tags: ['(unclosed'] },
    { name: '' },
  ]);
  const defs = createDefinitions(pools, [{ address: 'burn1', label: 'Burn', kind: 'burn', poolId: null }]);

  it('reads mempool-style definitions (regexes or tags, slug or a slug of the name)', () => {
    expect(pools.map((p) => p.id)).toEqual(['foundry-usa', 'viabtc', 'bad-regex']);
    expect(pools[1]!.tags).toEqual(['/ViaBTC/']);
  });

  it('matches the payout address first, then the tag case-insensitively, else unknown', () => {
    expect(defs.attribute(hex('\x03abc/viabtc/'), ['addrF'])).toBe('foundry-usa');
    expect(defs.attribute(hex('\x03abc/VIABTC/xyz'), ['other'])).toBe('viabtc');
    expect(defs.attribute(hex('mined by (unclosed group'), [])).toBe('bad-regex');
    expect(defs.attribute(hex('solo'), ['other'])).toBe(UNKNOWN_POOL);
    expect(defs.isBurn('burn1')).toBe(true);
  });

  it('changes its digest exactly when attribution can change', () => {
    const same = createDefinitions(pools, [
      { address: 'burn1', label: 'Renamed', kind: 'burn', poolId: null },
    ]);
    expect(same.hash).toBe(defs.hash);
    expect(createDefinitions(pools.slice(1), []).hash).not.toBe(defs.hash);
  });

  it('extracts a readable coinbase tag, skipping the height push and extranonce noise', () => {
    expect(coinbaseTag(`03a08601${hex('/ViaBTC/Mined by x/')}ff00ee11`)).toBe('/ViaBTC/Mined by x/');
    expect(coinbaseTag('0341424344')).toBe('');
  });
});
