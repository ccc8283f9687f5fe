import { z } from 'zod';

// What a CoinGecko-compatible provider answers. These are not part of the API document; the provider adapter
// parses every answer with them, so an answer of another shape is an error, never data.

/** `/simple/price`: coin id → `{ <vs>: price, <vs>_market_cap, <vs>_24h_vol, <vs>_24h_change, last_updated_at }`. */
export const ProviderSimplePriceSchema = z.record(z.string(), z.record(z.string(), z.number().nullable()));

/** `/coins/{id}/market_chart`: `prices` as `[milliseconds, price]` pairs (other series are ignored). */
export const ProviderMarketChartSchema = z.object({
  prices: z.array(z.tuple([z.number().min(0), z.number().min(0)])),
});
