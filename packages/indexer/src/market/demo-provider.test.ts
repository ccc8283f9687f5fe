import { describe, expect, it } from 'vitest';
import { createDemoProvider } from './demo-provider.js';

const NOON = Date.parse('2025-03-01T12:00:00Z');

describe('demo provider', () => {
  it('is deterministic: the same seed and time give the same prices and charts', async () => {
    const a = createDemoProvider({ seed: 's1', clock: () => NOON });
    const b = createDemoProvider({ seed: 's1', clock: () => NOON + 60_000 });
    expect(await a.prices(['usd', 'eur'])).toEqual(await b.prices(['usd', 'eur']));
    expect(await a.chart('usd', 7)).toEqual(await b.chart('usd', 7));
  });

  it('depends on the seed and the day', async () => {
    const price = async (seed: string, t: number) =>
      (await createDemoProvider({ seed, clock: () => t }).prices(['usd']))[0]!.price;
    expect(await price('s1', NOON)).not.toBe(await price('s2', NOON));
    expect(await price('s1', NOON)).not.toBe(await price('s1', NOON + 86_400_000));
  });

  it('says it is demo data and has plausible figures', async () => {
    const p = createDemoProvider({ seed: 's1', clock: () => NOON });
    expect(p).toMatchObject({ name: 'demo', demo: true, coin: 'demo' });
    const [usd, eur, xyz] = await p.prices(['usd', 'eur', 'xyz']);
    expect(usd!.price).toBeGreaterThan(0);
    expect(eur!.price).toBeCloseTo(usd!.price * 0.92, 10);
    expect(xyz!.price).toBeGreaterThan(0);
    expect(usd!.marketCap).toBeNull();
    expect(Math.abs(usd!.change24h!)).toBeLessThan(100);
  });

  it('charts with the granularity of the window, ending now, and agreeing with the current price', async () => {
    const p = createDemoProvider({ seed: 's1', clock: () => NOON });
    const day = await p.chart('usd', 1);
    expect(day).toHaveLength(289);
    expect(day.at(-1)).toEqual({ t: NOON, price: (await p.prices(['usd']))[0]!.price });
    expect(await p.chart('usd', 90)).toHaveLength(90 * 24 + 1);
    const year = await p.chart('usd', 365);
    expect(year).toHaveLength(366);
    expect(year[1]!.t - year[0]!.t).toBe(86_400_000);
  });
});
