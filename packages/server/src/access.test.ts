import { generateApiKey } from '@explorer/core';
import { findApiKey, insertApiKey, revokeApiKey } from '@explorer/db';
import { openTestDatabase, type TestDatabase } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from './access.js';
import { loadConfig } from './config/index.js';
import { captureLog } from './test-support/log-capture.js';
import { serveExplorer } from './test-support/serve-app.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase('pglite');
});
afterAll(() => db.drop());

async function setup(env: Record<string, string> = {}) {
  const cap = captureLog('debug');
  const config = loadConfig({ RATE_LIMIT_ANON: '5', RATE_LIMIT_TIERS: 'pro:50', ...env });
  const access = await createAccess(config, db.sql, cap.log);
  const server = await serveExplorer({
    log: cap.log,
    authenticate: access.authenticate,
    rateLimiter: access.rateLimiter ?? undefined,
  });
  const get = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${server.url}${path}`, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
  };
  return { ...cap, server, get, close: () => server.close().then(() => access.close()) };
}

async function newKey(tier = 'pro') {
  const k = generateApiKey();
  await insertApiKey(db.sql, { id: k.id, name: 'acme', tier, keyHash: k.hash });
  return k;
}

const rl = (h: Headers) => ({
  limit: h.get('x-ratelimit-limit'),
  remaining: h.get('x-ratelimit-remaining'),
  reset: h.get('x-ratelimit-reset'),
});

describe('API keys and buckets through the server', () => {
  it('a key selects its own bucket by tier, in either header, and /v1/api/me says so', async () => {
    const s = await setup();
    try {
      const k = await newKey('pro');
      const viaHeader = await s.get('/v1/api/me', { headers: { 'x-api-key': k.key } });
      expect(viaHeader.status).toBe(200);
      expect(viaHeader.body.identity).toEqual({ type: 'key', keyId: k.id, name: 'acme', tier: 'pro' });
      expect(viaHeader.body.bucket).toMatchObject({
        name: `key:${k.id}`,
        limit: 50,
        remaining: 49,
        windowSeconds: 60,
      });
      const viaBearer = await s.get('/v1/api/me', { headers: { authorization: `Bearer ${k.key}` } });
      expect(viaBearer.body.bucket.remaining).toBe(48);
      expect(rl(viaBearer.headers)).toMatchObject({ limit: '50', remaining: '48' });
      const anon = await s.get('/v1/api/me');
      expect(anon.body.identity).toEqual({ type: 'anonymous' });
      expect(anon.body.bucket).toMatchObject({ name: 'anon:127.0.0.1', limit: 5, remaining: 4 });
      // The last-used time is written in the background after the key is verified.
      await expect.poll(async () => (await findApiKey(db.sql, k.id))?.lastUsedAt ?? null).not.toBeNull();
    } finally {
      await s.close();
    }
  });

  it('refuses malformed, unknown and revoked keys with 401 and never writes the key anywhere', async () => {
    const s = await setup({ API_KEY_CACHE_SECONDS: '0' });
    try {
      const k = await newKey();
      const typo = `${k.key.slice(0, -1)}${k.key.endsWith('a') ? 'b' : 'a'}`;
      const malformed = await s.get('/v1/blocks', { headers: { 'x-api-key': typo } });
      expect(malformed.status).toBe(401);
      expect(malformed.body).toMatchObject({
        ok: false,
        error: 'API key is malformed',
        meta: expect.any(Object),
      });
      expect(malformed.headers.get('www-authenticate')).toBeTruthy();
      const unknown = await s.get('/v1/blocks', {
        headers: { authorization: `Bearer ${generateApiKey().key}` },
      });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error).toBe('API key is unknown or revoked');
      expect((await s.get('/v1/api/me', { headers: { 'x-api-key': k.key } })).status).toBe(200);
      expect(await revokeApiKey(db.sql, k.id)).toBe('revoked');
      const revoked = await s.get('/v1/api/me', { headers: { 'x-api-key': k.key } });
      expect(revoked.status).toBe(401);
      expect(revoked.body.error).toBe('API key is unknown or revoked');
      for (const text of [malformed.text, unknown.text, revoked.text, ...s.lines]) {
        expect(text).not.toContain(k.key.slice(4));
        expect(text).not.toContain(typo.slice(4));
      }
    } finally {
      await s.close();
    }
  });

  it('puts X-RateLimit-* on every error (400, 401, 404, 405, 414) and limits failing requests too', async () => {
    const s = await setup({ RATE_LIMIT_ANON: '6' });
    try {
      const k = await newKey();
      const answers = [
        await s.get('/v1/blocks?limit=0'),
        await s.get('/v1/blocks', { headers: { 'x-api-key': 'exk_nope' } }),
        await s.get('/v1/nothing-here'),
        await s.get('/v1/blocks', { method: 'POST' }),
        await s.get('/v1/blocks', {
          headers: { 'x-api-key': k.key, authorization: `Bearer ${generateApiKey().key}` },
        }),
        await s.get(`/v1/search?q=${'a'.repeat(15_000)}`),
      ];
      expect(answers.map((a) => a.status)).toEqual([400, 401, 404, 405, 400, 414]);
      answers.forEach((a, i) => {
        expect(a.body).toMatchObject({ ok: false, error: expect.any(String), meta: expect.any(Object) });
        expect(rl(a.headers)).toEqual({
          limit: '6',
          remaining: String(5 - i),
          reset: expect.stringMatching(/^\d+$/),
        });
      });
      const over = await s.get('/v1/nothing-here');
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({
        ok: false,
        error: expect.stringMatching(/rate limit/),
        meta: expect.any(Object),
      });
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(rl(over.headers)).toMatchObject({ limit: '6', remaining: '0' });
      const alsoOver = await s.get('/v1/api/me');
      expect(alsoOver.status).toBe(429);
      // A key has its own bucket: the anonymous address being spent does not touch it.
      expect((await s.get('/v1/api/me', { headers: { 'x-api-key': k.key } })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('sends no rate-limit headers when RATE_LIMIT_ENABLED is false, and /v1/api/me reports no bucket', async () => {
    const s = await setup({ RATE_LIMIT_ENABLED: 'false' });
    try {
      const me = await s.get('/v1/api/me');
      expect(me.status).toBe(200);
      expect(me.body.bucket).toBeNull();
      expect(me.headers.get('x-ratelimit-limit')).toBeNull();
    } finally {
      await s.close();
    }
  });
});
