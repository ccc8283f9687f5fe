import { describe, expect, it } from 'vitest';
import type { CliIo } from './context.js';
import { runCli } from './program.js';

type Fetch = NonNullable<CliIo['fetch']>;

/** Runs the command line in process against a fake fetch; answers the exit code and what it wrote. */
async function cli(args: string[], fetch: Fetch, env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (out += s), isTTY: false },
    stderr: { write: (s: string) => (err += s), isTTY: false },
    env: { EXPLORER_BASE_URL: 'http://api.test', ...env },
    signal: new AbortController().signal,
    fetch,
  };
  const code = await runCli(args, io);
  return { code, out, err };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A fetch that records each request and answers with `answer`. */
function recording(answer: (url: URL, hit: number) => Response | Promise<Response>) {
  const seen: { url: string; key: string | null; at: number }[] = [];
  const fetch: Fetch = async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    seen.push({ url: url.pathname + url.search, key: req.headers.get('x-api-key'), at: Date.now() });
    return answer(url, seen.length);
  };
  return { fetch, seen };
}

/** An endless `/v1/blocks`: `limit` rows from the cursor on. */
const endlessBlocks = (url: URL) => {
  const start = Number(url.searchParams.get('cursor') ?? 0);
  const limit = Number(url.searchParams.get('limit') ?? 20);
  return json(200, {
    ok: true,
    blocks: Array.from({ length: limit }, (_, i) => ({ height: start + i })),
    pagination: { limit, cursor: null, nextCursor: String(start + limit), hasMore: true },
    meta: { requestId: 'r' },
  });
};

const status = () => json(200, { ok: true, status: { healthy: true }, meta: { requestId: 'r' } });

describe('commands over the SDK', () => {
  it('--all --max walks the cursors, the last request asking only for the rows left, with the API key', async () => {
    const { fetch, seen } = recording(endlessBlocks);
    const r = await cli(['blocks', '--all', '--max', '7', '--limit', '3', '--ndjson'], fetch, {
      EXPLORER_BASE_URL: 'http://api.test/prefix/',
      EXPLORER_API_KEY: 'k1',
    });
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(
      r.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).height),
    ).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(seen.map((s) => s.url)).toEqual([
      '/prefix/v1/blocks?limit=3',
      '/prefix/v1/blocks?limit=3&cursor=3',
      '/prefix/v1/blocks?limit=1&cursor=6',
    ]);
    expect(seen.every((s) => s.key === 'k1')).toBe(true);
  });

  it('--all asks for pages of 100 unless --limit says, and passes a bad --limit on untouched', async () => {
    const all = recording(endlessBlocks);
    await cli(['blocks', '--all', '--max', '150', '--ndjson'], all.fetch);
    expect(all.seen.map((s) => s.url)).toEqual(['/v1/blocks?limit=100', '/v1/blocks?limit=50&cursor=100']);
    const bad = recording(() =>
      json(400, { ok: false, error: 'limit must be an integer from 1 to 100', meta: { requestId: 'b' } }),
    );
    const r = await cli(['blocks', '--all', '--max', '5', '--limit', 'abc'], bad.fetch);
    expect(bad.seen.map((s) => s.url)).toEqual(['/v1/blocks?limit=abc']);
    expect(r).toMatchObject({
      code: 4,
      err: 'error: limit must be an integer from 1 to 100 (requestId b)\n',
    });
  });

  it('puts path parameters into the SDK’s paths, encoded', async () => {
    const { fetch, seen } = recording(() =>
      json(200, { ok: true, certificate: {}, meta: { requestId: 'r' } }),
    );
    await cli(['block', 'a/b', 'certificate', '--proof', '--json'], fetch);
    expect(seen.map((s) => s.url)).toEqual(['/v1/blocks/a%2Fb/certificate?includeProof=true']);
  });

  it('waits the Retry-After of a 429, saying so on stderr first, then carries on', async () => {
    const { fetch, seen } = recording((_url, hit) =>
      hit === 1
        ? json(
            429,
            { ok: false, error: 'rate limit exceeded; retry after 1 s', meta: { requestId: 'q' } },
            { 'retry-after': '1' },
          )
        : status(),
    );
    const r = await cli(['status', '--json'], fetch);
    expect(r).toMatchObject({ code: 0, err: 'rate limited; waiting 1 s (Retry-After)\n' });
    expect(JSON.parse(r.out)).toEqual({ status: { healthy: true } });
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('fails at once on a Retry-After longer than --max-wait, with exit 6 and the reason', async () => {
    const { fetch, seen } = recording(() =>
      json(
        429,
        { ok: false, error: 'rate limit exceeded; retry after 30 s', meta: { requestId: 'q' } },
        { 'retry-after': '30' },
      ),
    );
    const r = await cli(['blocks', '--max-wait', '5'], fetch);
    expect(r).toEqual({
      code: 6,
      out: '',
      err: 'error: rate limit exceeded; retry after 30 s (Retry-After 30 s is longer than --max-wait 5 s) (requestId q)\n',
    });
    expect(seen).toHaveLength(1);
  });

  it('reports a timeout as exit 8, and an answer that is not the API’s as exit 7', async () => {
    const hang: Fetch = (input) =>
      new Promise((_resolve, reject) => {
        const signal = (input as Request).signal;
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    const timeout = await cli(['status', '--timeout', '50'], hang);
    expect(timeout).toMatchObject({
      code: 8,
      err: 'error: no answer from http://api.test/v1/status within 50 ms (see --timeout)\n',
    });
    const html = await cli(['status'], async () => new Response('<html>proxy</html>', { status: 200 }));
    expect(html).toMatchObject({
      code: 7,
      err: 'error: getStatus: the response does not match the API: the body is not JSON\n',
    });
    const bare = await cli(['status'], async () => json(200, { status: { healthy: true } }));
    expect(bare).toMatchObject({ code: 7, err: expect.stringMatching(/body\.ok is not true/) });
  });

  it('market on a server with no market-data provider: prints its message at once and exits 7', async () => {
    const message =
      'no market-data provider is configured on this server: set MARKET_PROVIDER_URL (a CoinGecko-compatible API) and MARKET_COIN_ID where the indexer runs';
    // A 501: nothing a retry changes.
    const { fetch, seen } = recording(() =>
      json(501, { ok: false, error: message, meta: { requestId: 'r9' } }),
    );
    for (const args of [['market'], ['market', 'chart', '--days', '30'], ['market', '--json']]) {
      seen.length = 0;
      const r = await cli(args, fetch);
      expect(r).toEqual({ code: 7, out: '', err: `error: ${message} (requestId r9)\n` });
      expect(seen).toHaveLength(1);
    }
  });

  it('status shows the indexer’s sync progress when there is one', async () => {
    const progress = {
      height: 1200,
      nodeHeight: 3000,
      percent: 40,
      blocksPerSecond: 85.2,
      txPerSecond: 690.4,
      etaSeconds: 33,
      startedAt: '2025-03-01T12:00:00.000Z',
      updatedAt: '2025-03-01T12:00:14.000Z',
    };
    const answer = (p: typeof progress | null) =>
      recording(() =>
        json(200, {
          ok: true,
          status: {
            healthy: false,
            indexer: { state: p ? 'syncing' : 'synced', tipHeight: 1200, progress: p },
          },
          meta: { requestId: 'r' },
        }),
      ).fetch;
    const syncing = await cli(['status', '--table'], answer(progress));
    expect(syncing).toMatchObject({ code: 0, err: '' });
    expect(syncing.out).toMatch(/^indexer\.progress\.height\s+1200$/m);
    expect(syncing.out).toMatch(/^indexer\.progress\.percent\s+40$/m);
    expect(syncing.out).toMatch(/^indexer\.progress\.etaSeconds\s+33$/m);
    expect(
      JSON.parse((await cli(['status', '--json'], answer(progress))).out).status.indexer.progress,
    ).toEqual(progress);
    const synced = await cli(['status', '--table'], answer(null));
    expect(synced.out).not.toMatch(/progress\./);
  });

  it('tables round the numbers that are not whole (market, analytics network); --json keeps them', async () => {
    const quote = { vsCurrency: 'usd', price: 4.211597387306128, change24h: -2.7935915027648917 };
    const network = {
      difficulty: 1.13669239,
      hashrate: { '1d': { averageBlockInterval: 145.19354838709677 } },
    };
    const { fetch } = recording((url) =>
      url.pathname === '/v1/market'
        ? json(200, { ok: true, market: { coin: 'demo', quotes: [quote] }, meta: { requestId: 'r' } })
        : json(200, { ok: true, network, meta: { requestId: 'r' } }),
    );
    const market = await cli(['market', '--table'], fetch);
    expect(market).toMatchObject({ code: 0, err: '' });
    expect(market.out).toMatch(/\nusd\s+4\.2116\s+-2\.79359\n/);
    expect(JSON.parse((await cli(['market', '--json'], fetch)).out)).toEqual({
      market: { coin: 'demo', quotes: [quote] },
    });
    const table = await cli(['analytics', 'network', '--table'], fetch);
    expect(table.out).toMatch(/^difficulty\s+1\.13669$/m);
    expect(table.out).toMatch(/^hashrate\.1d\.averageBlockInterval\s+145\.194$/m);
    expect(JSON.parse((await cli(['analytics', 'network', '--json'], fetch)).out)).toEqual({ network });
  });

  it('me shows when the rate-limit window resets as a time and how far off it is; --json keeps Unix seconds', async () => {
    const reset = Math.floor(Date.now() / 1000) + 42;
    const bucket = { name: 'anon:127.0.0.1', limit: 120, remaining: 117, reset, windowSeconds: 60 };
    const { fetch } = recording(() =>
      json(200, { ok: true, identity: { type: 'anonymous' }, bucket, meta: { requestId: 'r' } }),
    );
    const table = await cli(['me', '--table'], fetch);
    const iso = new Date(reset * 1000).toISOString().replace('.000Z', 'Z');
    // The seconds left are counted when the table is drawn: 42, or fewer on a slow machine.
    expect(table.out).toMatch(new RegExp(`^bucket\\.reset\\s+${iso} \\(in \\d+ s\\)$`, 'm'));
    expect(JSON.parse((await cli(['me', '--json'], fetch)).out).bucket.reset).toBe(reset);
  });

  it('miners and pools alone show the top list, with its options; the top subcommands still work', async () => {
    const miners = [{ address: 'prl1qminer', label: null, blocks: 3, share: 0.5 }];
    const pools = [{ id: 'foundryusa', name: 'Foundry USA', blocks: 3, share: 0.5 }];
    const { fetch, seen } = recording((url) =>
      url.pathname === '/v1/miners/top'
        ? json(200, {
            ok: true,
            miners,
            pagination: { limit: 2, cursor: null, nextCursor: null, hasMore: false },
            meta: { requestId: 'r' },
          })
        : json(200, { ok: true, window: '7d', blocks: 6, pools, meta: { requestId: 'r' } }),
    );
    for (const argv of [['miners'], ['miners', 'top']]) {
      const r = await cli([...argv, '--limit', '2', '--table'], fetch);
      expect(r).toMatchObject({ code: 0, err: '' });
      expect(r.out).toMatch(/^address\s+label\s+blocks\s+share/);
      expect(r.out).toContain('prl1qminer');
    }
    for (const argv of [['pools'], ['pools', 'top']]) {
      const r = await cli([...argv, '--window', '7d', '--table'], fetch);
      expect(r).toMatchObject({ code: 0, err: '' });
      expect(r.out).toMatch(/\nfoundryusa\s+Foundry USA\s+3\s+50\.00%/);
    }
    expect(seen.map((s) => s.url)).toEqual([
      '/v1/miners/top?limit=2',
      '/v1/miners/top?limit=2',
      '/v1/pools/top?window=7d',
      '/v1/pools/top?window=7d',
    ]);
  });
});
