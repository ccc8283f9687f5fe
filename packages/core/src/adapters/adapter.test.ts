import { describe, expect, it } from 'vitest';
import { createExplorerApi } from '../api/create-api.js';
import { v1Routes } from '../routes/index.js';
import { storeWith } from '../test-support/stores.js';
import { esploraRoutes } from './esplora/routes.js';

const tip = { height: 10, hash: 'ab'.repeat(32), txHeight: 10, time: 1 };

// The adapters go through the API's own steps: the caller identified, counted against the rate limit (an API
// key's bucket for a key), answered in the protocol's words, never in /v1's envelope.
describe('protocol adapters in the API', () => {
  const consumed: unknown[] = [];
  let allowed = true;
  const api = createExplorerApi({
    store: storeWith({ tip: async () => tip }),
    routes: v1Routes,
    adapters: esploraRoutes({ prefix: '/esplora/api' }),
    config: { tipCacheMs: 0 },
    authenticate: async (key) => {
      if (key !== 'good-key') throw new Error('unexpected key');
      return { type: 'key', keyId: 'k1', name: 'wallet', tier: 'pro' };
    },
    rateLimiter: {
      consume: async (identity) => {
        consumed.push(identity);
        return {
          allowed,
          bucket: identity.type === 'key' ? 'key:k1' : 'anon:1.2.3.4',
          limit: 5,
          remaining: allowed ? 4 : 0,
          reset: 99,
          windowSeconds: 60,
        };
      },
    },
  });
  const get = (path: string, init?: RequestInit) =>
    api.handle(new Request(`http://x${path}`, init), { clientAddress: '1.2.3.4' });

  it('serves under its prefix, in plain text, counted in the caller’s bucket', async () => {
    const res = await get('/esplora/api/blocks/tip/height', { headers: { 'x-api-key': 'good-key' } });
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([
      200,
      'text/plain',
      '10',
    ]);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(consumed.at(-1)).toMatchObject({ type: 'key', keyId: 'k1' });
    // Not under another prefix: /api is then nobody's, and /v1 answers its own 404.
    const elsewhere = await get('/api/blocks/tip/height');
    expect(elsewhere.status).toBe(404);
    expect((await elsewhere.json()).ok).toBe(false);
  });

  it('answers its refusals in its own words: unknown paths, bad input, methods, the rate limit', async () => {
    const unknown = await get('/esplora/api/nothing');
    expect([unknown.status, await unknown.text()]).toEqual([404, 'endpoint does not exist "/nothing"']);
    const bad = await get('/esplora/api/tx/xyz');
    expect([bad.status, bad.headers.get('content-type'), await bad.text()]).toEqual([
      400,
      'text/plain',
      'Invalid hex string',
    ]);
    const post = await get('/esplora/api/blocks/tip/height', { method: 'POST' });
    expect(post.status).toBe(405);
    const broadcast = await get('/esplora/api/tx', { method: 'POST', body: '00' });
    expect(broadcast.status).toBe(405);
    expect(await broadcast.text()).toMatch(/broadcasting is turned off/);
    allowed = false;
    try {
      const limited = await get('/esplora/api/blocks/tip/hash');
      expect([
        limited.status,
        limited.headers.get('retry-after'),
        limited.headers.get('content-type'),
      ]).toEqual([429, expect.any(String), 'text/plain']);
      expect(await limited.text()).toMatch(/^rate limit exceeded/);
    } finally {
      allowed = true;
    }
  });

  it('is no part of the /v1 document', () => {
    expect(Object.keys(api.openapi().paths).filter((p) => p.startsWith('/esplora'))).toEqual([]);
    expect(api.routes).toBe(v1Routes);
    expect(api.adapters.length).toBeGreaterThan(30);
  });
});
