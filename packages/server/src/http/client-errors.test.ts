import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { type ChainFixture, createChainFixture, directChainNode } from '@explorer/chain-fixture';
import { createExplorerApi, v1Routes } from '@explorer/core';
import { createSqlStore } from '@explorer/db';
import { createResponseValidator, type ResponseValidator } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { createRateLimiter } from '../rate-limit/index.js';
import { serveApp } from '../test-support/serve-app.js';
import { createServerApp } from './app.js';
import { attachClientErrorHandler } from './client-errors.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Sends bytes as they are over a fresh connection and reads the answer until the server closes it. */
function exchange(base: string, bytes: string | Buffer): Promise<RawAnswer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    sock.on('data', (c) => chunks.push(c));
    sock.on('error', reject);
    sock.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines)
        headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      resolve({
        status: Number(statusLine?.split(' ')[1]),
        headers,
        body: JSON.parse(text.slice(split + 4)),
      });
    });
    sock.end(bytes);
  });
}

const rateLimit = (a: RawAnswer) => ({
  limit: a.headers['x-ratelimit-limit'],
  remaining: a.headers['x-ratelimit-remaining'],
  reset: a.headers['x-ratelimit-reset'],
});

describe('answers refused before routing (414, 431, broken HTTP) over a real server (pglite)', () => {
  let f: ChainFixture;
  let server: { url: string; close(): Promise<void> };
  let validator: ResponseValidator;

  beforeAll(async () => {
    f = await createChainFixture('pglite', { seed: 'early-errors', blocks: 12 });
    const log = createLogger({ level: 'silent' });
    const rateLimiter = createRateLimiter({
      policy: { windowSeconds: 60, anonymous: 5, key: 100, tiers: {} },
      keyPrefix: `early-${Date.now()}`,
    });
    const api = createExplorerApi({
      store: createSqlStore(f.db.sql),
      routes: v1Routes,
      node: directChainNode(f.node, () => f.devnet.height()),
      config: { tipCacheMs: 0 },
      rateLimiter,
    });
    const app = createServerApp({ api, log, rateLimiter });
    server = await serveApp((req, env) => app.fetch(req, env as never), { log, maxHeaderSize: 16_384 });
    validator = createResponseValidator(api.openapi());
  });
  afterAll(async () => {
    await server?.close();
    await f?.close();
  });

  it('carry the indexed tip, the node height and the rate-limit headers, and count against the bucket', async () => {
    const tip = f.devnet.height();
    const answers = [
      // A 3 KB URL: past MAX_URL_LENGTH, within the header limit.
      await exchange(
        server.url,
        `GET /v1/search?q=${'a'.repeat(15_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      ),
      // 20 KB of headers: past maxHeaderSize, refused by Node's parser.
      await exchange(
        server.url,
        `GET /v1/status HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
      // Bytes that are not HTTP (a TLS client hello, then noise).
      await exchange(
        server.url,
        Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]),
      ),
      await exchange(server.url, 'GET /v1/status HTTP/1.1\r\nHost x\r\n\r\n'),
    ];
    expect(answers.map((a) => a.status)).toEqual([414, 431, 400, 400]);
    expect(answers.map((a) => a.body.error)).toEqual([
      'the request URL is longer than 14336 bytes',
      'the request headers are too large',
      'the request is not valid HTTP',
      'the request is not valid HTTP',
    ]);
    answers.forEach((a, i) => {
      expect(validator.checkComponent('ErrorEnvelope', a.body), `answer ${i}`).toBeNull();
      expect(a.body.meta).toMatchObject({ indexedTip: tip, nodeHeight: tip });
      expect(a.headers['x-request-id']).toBe(a.body.meta.requestId);
      expect(rateLimit(a)).toEqual({
        limit: '5',
        remaining: String(4 - i),
        reset: expect.stringMatching(/^\d+$/),
      });
      expect(a.headers.connection).toBe('close');
    });
    // The fifth answer empties the bucket; the sixth is refused as over the limit, with Retry-After.
    await exchange(server.url, 'NOT HTTP\r\n\r\n');
    const over = await exchange(server.url, 'NOT HTTP\r\n\r\n');
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(rateLimit(over)).toMatchObject({ limit: '5', remaining: '0' });
    expect(validator.checkComponent('ErrorEnvelope', over.body)).toBeNull();
    expect(over.body.meta).toMatchObject({ indexedTip: tip, nodeHeight: tip });
  });

  it('answer with integer tips of -1 (not known) while the app is not up yet', async () => {
    const bare = createServer();
    attachClientErrorHandler(bare, createLogger({ level: 'silent' }), () => null);
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    try {
      const a = await exchange(
        `http://127.0.0.1:${(bare.address() as AddressInfo).port}`,
        'NOT HTTP\r\n\r\n',
      );
      expect(a.status).toBe(400);
      expect(validator.checkComponent('ErrorEnvelope', a.body)).toBeNull();
      expect(a.body.meta).toMatchObject({ indexedTip: -1, nodeHeight: -1 });
    } finally {
      await new Promise((r) => bare.close(r));
    }
  });
});
