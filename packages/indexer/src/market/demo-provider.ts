import { createHash } from 'node:crypto';
import type { MarketChartDays } from '@explorer/core';
import type { MarketProvider, PricePoint, PriceQuote } from './provider.js';

/** Options of the built-in demo provider. */
export interface DemoProviderOptions {
  /** Everything is derived from it (default `explorer-demo`). */
  seed?: string;
  /** Coin id reported (default `demo`). */
  coin?: string;
  /** Milliseconds since the epoch (tests pin it). */
  clock?: () => number;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
const STEP = 300_000;

// Made-up exchange rates from USD, so that several vs-currencies look plausible offline.
const RATES: Record<string, number> = {
  usd: 1,
  eur: 0.92,
  gbp: 0.79,
  jpy: 150,
  chf: 0.88,
  cad: 1.36,
  aud: 1.52,
  cny: 7.2,
  inr: 83,
  btc: 1 / 65_000,
  eth: 1 / 3_200,
};

/** A uniform number in [0, 1) from the seed and the parts. */
function unit(seed: string, ...parts: (string | number)[]): number {
  const digest = createHash('sha256')
    .update([seed, ...parts].join('\u0000'))
    .digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/**
 * Deterministic made-up market data for the embedded demo, so the market endpoints show figures offline.
 * A day's anchor price depends only on the seed and the UTC day; between anchors the price moves in
 * 5-minute steps that depend only on the seed and the step. Everything it produces is marked demo.
 * @example const provider = createDemoProvider({ seed: 'explorer-demo' })
 */
export function createDemoProvider(opts: DemoProviderOptions = {}): MarketProvider {
  const seed = opts.seed ?? 'explorer-demo';
  const clock = opts.clock ?? Date.now;
  const base = 0.2 + 9.8 * unit(seed, 'base');
  const phase1 = 2 * Math.PI * unit(seed, 'phase', 1);
  const phase2 = 2 * Math.PI * unit(seed, 'phase', 2);

  const anchorLog = (day: number) =>
    0.35 * Math.sin((2 * Math.PI * day) / 97 + phase1) +
    0.12 * Math.sin((2 * Math.PI * day) / 23 + phase2) +
    0.04 * (2 * unit(seed, 'day', day) - 1);

  /** USD price at `t` (milliseconds), on the 5-minute grid. */
  function usdAt(t: number): number {
    const step = Math.floor(t / STEP) * STEP;
    const day = Math.floor(step / DAY);
    const f = (step - day * DAY) / DAY;
    const log = (1 - f) * anchorLog(day) + f * anchorLog(day + 1);
    const wiggle = f === 0 ? 0 : 0.006 * (2 * unit(seed, 'step', step / STEP) - 1);
    return base * Math.exp(log + wiggle);
  }

  const rate = (vs: string) => RATES[vs] ?? 0.5 + 1.5 * unit(seed, 'rate', vs);

  return {
    name: 'demo',
    coin: opts.coin ?? 'demo',
    demo: true,
    async prices(vsCurrencies): Promise<PriceQuote[]> {
      const now = Math.floor(clock() / STEP) * STEP;
      const usd = usdAt(now);
      const change24h = (usd / usdAt(now - DAY) - 1) * 100;
      const volumeUsd = usd * (1_000_000 + 4_000_000 * unit(seed, 'volume', Math.floor(now / DAY)));
      return vsCurrencies.map((vs) => ({
        vsCurrency: vs,
        price: usd * rate(vs),
        change24h,
        volume24h: volumeUsd * rate(vs),
        marketCap: null,
        providerUpdatedAt: now,
      }));
    },
    async chart(vsCurrency, days: MarketChartDays): Promise<PricePoint[]> {
      // The granularity CoinGecko uses: 5-minute points for 1 day, hourly up to 90 days, daily beyond.
      const step = days === 1 ? STEP : days <= 90 ? HOUR : DAY;
      const end = Math.floor(clock() / step) * step;
      const r = rate(vsCurrency);
      const points: PricePoint[] = [];
      for (let t = end - days * DAY; t <= end; t += step) points.push({ t, price: usdAt(t) * r });
      return points;
    },
  };
}
