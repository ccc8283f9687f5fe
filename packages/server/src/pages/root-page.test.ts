import { createExplorerApi, v1Routes } from '@explorer/core';
import { createPgSql, createSqlStore } from '@explorer/db';
import { describe, expect, it } from 'vitest';
import { type ApiHandler, createServerApp } from '../http/app.js';
import { createLogger } from '../logger.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const silent = createLogger({ level: 'silent' });

const block = (height: number, extra: Record<string, unknown> = {}) => ({
  height,
  hash: `${String(height).padStart(4, '0')}${'ab'.repeat(30)}`,
  time: 1_795_394_793 - (120 - height) * 60,
  txCount: height % 7,
  miner: { address: 'rprl1qminer', label: null },
  pool: { id: 'unknown', name: 'Unknown', link: null },
  ...extra,
});

const statusBody = (over: { healthy?: boolean; degraded?: string[]; name?: string } = {}) => ({
  ok: true,
  status: {
    state: over.healthy === false ? 'degraded' : 'healthy',
    healthy: over.healthy ?? true,
    degraded: over.degraded ?? [],
    chain: {
      profile: 'pearl',
      network: 'regtest',
      name: over.name ?? 'Pearl regtest',
      units: { symbol: 'PRL', baseUnit: 'grain', decimals: 8 },
      addresses: { bech32Hrp: 'rprl', mwebHrp: null, base58: null },
    },
    node: { ok: true, latencyMs: 1, error: null, height: 121 },
    indexer: { state: 'syncing', tipHeight: 120, nodeHeight: 121, lagBlocks: 1 },
  },
  meta: { requestId: 'r', indexedTip: 120, nodeHeight: 121 },
});

/** An API answering /v1/status and /v1/blocks from the given bodies, recording what it was asked. */
function fakeApi(bodies: { status?: unknown; blocks?: unknown[]; blocksStatus?: number } = {}) {
  const calls: { url: string; requestId: string | null; clientAddress: string | null | undefined }[] = [];
  const api: ApiHandler = {
    async handle(request, options) {
      calls.push({
        url: request.url,
        requestId: request.headers.get('x-request-id'),
        clientAddress: options?.clientAddress,
      });
      const path = new URL(request.url).pathname;
      const headers = {
        'content-type': 'application/json; charset=utf-8',
        'x-ratelimit-limit': '120',
        'x-ratelimit-remaining': String(120 - calls.length),
        'x-ratelimit-reset': '1795394800',
      };
      if (path === '/v1/status')
        return new Response(JSON.stringify(bodies.status ?? statusBody()), { headers });
      if (path === '/v1/blocks') {
        const status = bodies.blocksStatus ?? 200;
        const body =
          status === 200
            ? { ok: true, blocks: bodies.blocks ?? [block(120), block(119)], meta: { requestId: 'r' } }
            : { ok: false, error: 'the database is unavailable; retry shortly', meta: { requestId: 'r' } };
        return new Response(JSON.stringify(body), { status, headers });
      }
      return new Response('{"ok":false,"error":"not found"}', { status: 404, headers });
    },
  };
  return { api, calls };
}

const appOver = (api: ApiHandler) =>
  createServerApp({ api, log: silent, info: { name: 'explorer', version: '9.8.7' } });

describe('/ content negotiation', () => {
  it.each([
    ['application/json', 'application/json'],
    ['*/*', 'curl'],
    [null, 'no Accept'],
    ['application/json, text/html;q=0.5', 'JSON preferred'],
  ])('answers JSON to Accept %s (%s), extended with links', async (accept, _why) => {
    const { api, calls } = fakeApi();
    const res = await appOver(api).request('/', accept ? { headers: { accept } } : {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('vary')).toMatch(/\bAccept\b/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({
      name: 'explorer',
      version: '9.8.7',
      docs: '/docs',
      openapi: '/v1/openapi.json',
      status: '/v1/status',
      links: { docs: '/docs', openapi: '/v1/openapi.json', status: '/v1/status', blocks: '/v1/blocks' },
      sdk: { package: '@explorer/client', example: expect.stringContaining("baseUrl: 'http://localhost'") },
      cli: { package: '@explorer/cli', example: 'explorer --base-url http://localhost blocks --limit 50' },
    });
    // The JSON index reads nothing.
    expect(calls).toEqual([]);
  });

  it.each([
    [BROWSER, 'a browser'],
    ['text/html', 'text/html alone'],
    ['application/json;q=0.5, text/html', 'HTML preferred'],
  ])('answers a page to Accept %s (%s)', async (accept, _why) => {
    const { api } = fakeApi();
    const res = await appOver(api).request('/', { headers: { accept } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/i);
    expect(res.headers.get('vary')).toMatch(/\bAccept\b/);
    expect(await res.text()).toMatch(/^<!doctype html>/);
  });

  it('shows the configured public address in its examples, not the address a proxy forwarded to', async () => {
    const { api } = fakeApi();
    const app = createServerApp({
      api,
      log: silent,
      info: { name: 'explorer', version: '9.8.7' },
      publicBaseUrl: 'https://explorer.example.org',
    });
    const index = (await (await app.request('http://10.0.0.7:3000/')).json()) as { cli: { example: string } };
    expect(index.cli.example).toBe('explorer --base-url https://explorer.example.org blocks --limit 50');
    const page = await (await app.request('http://10.0.0.7:3000/', { headers: { accept: BROWSER } })).text();
    expect(page).toContain("curl -s 'https://explorer.example.org/v1/blocks?limit=5'");
    expect(page).not.toContain('10.0.0.7');
  });
});

describe('the / page', () => {
  it('shows what this is, the live status, the latest blocks and where to go next', async () => {
    const { api, calls } = fakeApi({
      blocks: [
        block(120, { miner: { address: 'rprl1qx', label: 'Faucet' } }),
        block(119, { pool: { id: 'viabtc', name: 'ViaBTC', link: null } }),
        block(118),
      ],
    });
    const res = await appOver(api).request('/', { headers: { accept: BROWSER, 'x-request-id': 'page-1' } });
    const page = await res.text();
    expect(page).toContain('<title>Explorer API · Pearl regtest</title>');
    expect(page).toContain('Pearl (PRL)');
    expect(page).toContain('Bitcoin Core');
    expect(page).toContain('<small id="version">explorer 9.8.7</small>');
    expect(page).toContain('<dd id="chain">Pearl regtest (PRL) · rprl</dd>');
    expect(page).toContain('<dd id="indexed-tip">120</dd>');
    expect(page).toContain('<dd id="node-height">121</dd>');
    expect(page).toContain('<dd id="sync-state">syncing (1 block behind)</dd>');
    expect(page.match(/<tr>\n<td class="num"><a href="\/v1\/blocks\/\d+">/g)).toHaveLength(3);
    expect(page).toContain('<td>2026-11-23 00:46:33 UTC</td>');
    expect(page).toContain('<td>Faucet</td>');
    expect(page).toContain('<td>ViaBTC</td>');
    for (const href of ['/docs', '/v1/openapi.json', '/v1/status']) expect(page).toContain(`href="${href}"`);
    expect(page).toContain('@explorer/client');
    expect(page).toContain('explorer --base-url http://localhost blocks --limit 50');
    expect(page).toContain('npm run explorer --');
    // Self-contained: no script at all, nothing loaded from elsewhere.
    expect(page).not.toMatch(/<script|src=|https?:\/\/(?!localhost)/i);
    // The one link is an empty icon, so browsers do not ask for /favicon.ico.
    expect(page.match(/<link [^>]*>/g)).toEqual(['<link rel="icon" href="data:,">']);
    // Read through the API, as the caller, under the caller's request id; its rate-limit state is passed on.
    expect(calls.map((c) => c.url).sort()).toEqual([
      'http://localhost/v1/blocks?limit=8',
      'http://localhost/v1/status',
    ]);
    expect(calls.every((c) => c.requestId === 'page-1')).toBe(true);
    expect(res.headers.get('x-request-id')).toBe('page-1');
    expect(res.headers.get('x-ratelimit-limit')).toBe('120');
  });

  it('during a long sync shows its height, rate and ETA, and says syncing rather than healthy', async () => {
    const body = statusBody();
    const syncing = {
      ...body,
      status: {
        ...body.status,
        state: 'syncing',
        node: { ...body.status.node, height: 6000 },
        indexer: {
          state: 'syncing',
          tipHeight: 302,
          nodeHeight: 6000,
          lagBlocks: 5698,
          progress: {
            height: 302,
            nodeHeight: 6000,
            percent: 5,
            blocksPerSecond: 85,
            txPerSecond: 690,
            etaSeconds: 67,
            startedAt: '2026-11-23T00:00:00.000Z',
            updatedAt: '2026-11-23T00:00:05.000Z',
          },
        },
      },
    };
    const { api } = fakeApi({ status: syncing, blocks: [block(302)] });
    const page = await (await appOver(api).request('/', { headers: { accept: BROWSER } })).text();
    expect(page).toContain(
      '<dd id="sync-state">syncing: 302 of 6000 (5.0 %), 85 blocks/s, 690 tx/s, ETA 67 s (5698 blocks behind)</dd>',
    );
    expect(page).toContain('<dd id="health"><span class="syncing">syncing, ready in about 67 s</span></dd>');
    expect(page).not.toContain('>healthy<');

    // Once the index reached the node, healthy again.
    const synced = {
      ...body,
      status: { ...body.status, indexer: { state: 'synced', tipHeight: 121, nodeHeight: 121, lagBlocks: 0 } },
    };
    const done = await (
      await appOver(fakeApi({ status: synced, blocks: [block(121)] }).api).request('/', {
        headers: { accept: BROWSER },
      })
    ).text();
    expect(done).toContain('<dd id="sync-state">synced (0 blocks behind)</dd>');
    expect(done).toContain('<span class="good">healthy</span>');
  });

  it('names Litecoin’s networks with their unit and address prefixes', async () => {
    const body = statusBody();
    body.status.chain = {
      profile: 'bitcoin',
      network: 'regtest',
      name: 'Litecoin regtest',
      units: { symbol: 'tLTC', baseUnit: 'litoshi', decimals: 8 },
      addresses: {
        bech32Hrp: 'rltc',
        mwebHrp: 'tmweb',
        base58: { pubkeyHash: 111, scriptHash: 58, legacyScriptHash: 196 },
      },
    } as never;
    const { api } = fakeApi({ status: body });
    const page = await (await appOver(api).request('/', { headers: { accept: BROWSER } })).text();
    expect(page).toContain('<dd id="chain">Litecoin regtest (tLTC) · rltc, tmweb</dd>');
    expect(page).toContain('<title>Explorer API · Litecoin regtest</title>');
  });

  it('names a chain of no known network (a Core fork of its own genesis) without a placeholder', async () => {
    const body = statusBody();
    body.status.chain = {
      profile: 'bitcoin',
      network: 'regtest',
      name: null,
      units: { symbol: null, baseUnit: 'satoshi', decimals: 8 },
      addresses: null,
    } as never;
    const { api } = fakeApi({ status: body });
    const page = await (await appOver(api).request('/', { headers: { accept: BROWSER } })).text();
    expect(page).toContain('<dd id="chain">bitcoin regtest</dd>');
    expect(page).toContain('<title>Explorer API · bitcoin regtest</title>');
    expect(page).not.toContain('null');
  });

  it('escapes every value it shows', async () => {
    const evil = '<script>alert("x")</script>';
    const { api } = fakeApi({
      status: statusBody({ name: `regtest"><img src=x onerror=alert(1)>` }),
      blocks: [
        block(5, { miner: { address: 'a', label: evil } }),
        block(4, {
          hash: `"><b>&amp;${'0'.repeat(40)}`,
          pool: { id: 'p', name: "O'Brien & <Sons>", link: null },
        }),
      ],
    });
    const page = await (await appOver(api).request('/', { headers: { accept: BROWSER } })).text();
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<b>');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page).toContain('regtest&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('title="&quot;&gt;&lt;b&gt;&amp;amp;');
    expect(page).toContain('O&#39;Brien &amp; &lt;Sons&gt;');
  });

  it('says what is unavailable instead of failing: an error answer, a throwing API', async () => {
    const down = fakeApi({
      status: statusBody({ healthy: false, degraded: ['database'] }),
      blocksStatus: 503,
    });
    const res = await appOver(down.api).request('/', { headers: { accept: BROWSER } });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('degraded: database unavailable');
    expect(page).toContain(
      '<p class="bad" id="blocks-unavailable">Latest blocks unavailable: the database is unavailable; retry shortly</p>',
    );

    const broken: ApiHandler = {
      handle: async () => {
        throw new Error('kaboom');
      },
    };
    const res2 = await appOver(broken).request('/', { headers: { accept: BROWSER } });
    expect(res2.status).toBe(200);
    const page2 = await res2.text();
    expect(page2).toContain('Status unavailable: the API did not answer');
    expect(page2).toContain('Latest blocks unavailable: the API did not answer');
  });

  it('renders with the real API over a database that does not answer (no 5xx)', async () => {
    // Nothing listens on port 1; the pool fails to connect, as with a database that is down.
    const sql = createPgSql({
      connectionString: 'postgres://postgres@127.0.0.1:1/none',
      connectionTimeoutMs: 500,
    });
    try {
      const api = createExplorerApi({ store: createSqlStore(sql), routes: v1Routes, node: null });
      const res = await appOver(api).request('/', { headers: { accept: BROWSER } });
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).toMatch(/<span class="bad">degraded: [^<]*database unavailable/);
      expect(page).toContain('<dd id="indexed-tip">none</dd>');
      expect(page).toMatch(/<p class="bad" id="blocks-unavailable">Latest blocks unavailable: [^<]+<\/p>/);
    } finally {
      await sql.close();
    }
  });
});
