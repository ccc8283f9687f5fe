// A scriptable CoinGecko-style market-data server on loopback. Each endpoint answers in the
// mode it is set to (normal, slow, 429, 500, malformed JSON, wrong shape), and every request is recorded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen } from './http.js';

/** How the fake answers. */
export type FakeMarketMode = 'normal' | 'slow' | '429' | '500' | 'malformed' | 'shape';

/** One request the fake received. */
export interface FakeMarketRequest {
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
}

/** A running fake provider. */
export interface FakeMarketProvider {
  /** Base URL to give the provider (`http://127.0.0.1:<port>/api/v3`). */
  url: string;
  /** Mode of `/simple/price`. */
  priceMode: FakeMarketMode;
  /** Mode of `/coins/{coin}/market_chart`. */
  chartMode: FakeMarketMode;
  /** USD price answered; other currencies are a fixed multiple (eur 0.9). */
  usdPrice: number;
  /** Retry-After sent with a 429 (seconds, or an HTTP date). */
  retryAfter: string;
  /** How long a slow answer takes (ms). */
  slowMs: number;
  /** Provider time (ms) of the answers: `last_updated_at` and the end of chart series. */
  now: number;
  requests: FakeMarketRequest[];
  /** Sets both endpoints to one mode. */
  setMode(mode: FakeMarketMode): void;
  /** The quote the fake answers for a vs-currency in normal mode. */
  priceIn(vs: string): number;
  /** The number of chart points answered for a window in normal mode. */
  chartPoints(days: number): number;
  close(): Promise<void>;
}

const RATE: Record<string, number> = { usd: 1, eur: 0.9 };

/**
 * Starts the fake on 127.0.0.1 on a free port.
 * @example const fake = await startFakeMarketProvider('testcoin'); fake.setMode('500')
 */
export async function startFakeMarketProvider(coin: string): Promise<FakeMarketProvider> {
  const timers = new Set<NodeJS.Timeout>();
  const rate = (vs: string) => RATE[vs] ?? 2;
  const chartPoints = (days: number) => (days === 1 ? 288 : days <= 90 ? days * 24 : days) + 1;

  function normal(path: string, query: Record<string, string>): unknown {
    if (path.endsWith('/simple/price')) {
      if (query.ids !== coin) return {};
      const entry: Record<string, number | null> = { last_updated_at: Math.floor(fake.now / 1000) };
      for (const vs of (query.vs_currencies ?? '').split(',')) {
        const p = fake.priceIn(vs);
        entry[vs] = p;
        entry[`${vs}_market_cap`] = p * 21_000_000;
        entry[`${vs}_24h_vol`] = p * 1_000_000;
        entry[`${vs}_24h_change`] = vs === 'usd' ? -1.25 : null;
      }
      return { [coin]: entry };
    }
    const days = Number(query.days);
    const n = chartPoints(days);
    const step = (days * 86_400_000) / (n - 1);
    const p = fake.priceIn(query.vs_currency ?? 'usd');
    const series = Array.from({ length: n }, (_, i) => [
      Math.round(fake.now - (n - 1 - i) * step),
      p * (1 + i / 1000),
    ]);
    return { prices: series, market_caps: series, total_volumes: series };
  }

  function answer(res: ServerResponse, mode: FakeMarketMode, path: string, query: Record<string, string>) {
    const json = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    switch (mode) {
      case 'normal':
        return json(200, JSON.stringify(normal(path, query)));
      case 'slow': {
        const t = setTimeout(() => {
          timers.delete(t);
          if (!res.destroyed) json(200, JSON.stringify(normal(path, query)));
        }, fake.slowMs);
        timers.add(t);
        return;
      }
      case '429':
        return json(429, '{"status":{"error_code":429,"error_message":"rate limited"}}', {
          'retry-after': fake.retryAfter,
        });
      case '500':
        return json(500, '{"error":"internal"}');
      case 'malformed':
        return json(200, `{"${coin}": {"usd": 1`);
      case 'shape':
        return json(
          200,
          JSON.stringify(path.endsWith('/simple/price') ? { [coin]: { usd: '12.5' } } : { prices: 'none' }),
        );
    }
  }

  const server = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = Object.fromEntries(url.searchParams);
    fake.requests.push({ path: url.pathname, query, headers: req.headers });
    if (url.pathname === '/api/v3/simple/price') return answer(res, fake.priceMode, url.pathname, query);
    if (url.pathname === `/api/v3/coins/${coin}/market_chart`)
      return answer(res, fake.chartMode, url.pathname, query);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":"not found"}');
  });

  const fake: FakeMarketProvider = {
    url: `${server.url}/api/v3`,
    priceMode: 'normal',
    chartMode: 'normal',
    usdPrice: 12.5,
    retryAfter: '120',
    slowMs: 2_000,
    now: Date.parse('2025-03-01T12:00:00Z'),
    requests: [],
    setMode(mode) {
      fake.priceMode = mode;
      fake.chartMode = mode;
    },
    priceIn: (vs) => fake.usdPrice * rate(vs),
    chartPoints,
    async close() {
      for (const t of timers) clearTimeout(t);
      await server.close();
    },
  };
  return fake;
}
