import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { type ChainFixture, createChainFixture, directChainNode } from '@explorer/chain-fixture';
import { canonicalDump, createSqlStore } from '@explorer/db';
import { createDemoProvider, createMarketRefresher } from '@explorer/indexer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from './access.js';
import { loadConfig } from './config/index.js';
import { captureLog } from './test-support/log-capture.js';
import { serveExplorer } from './test-support/serve-app.js';

// Hostile values, sent percent-encoded as path segments and query values.
const HOSTILE = [
  "' OR 1=1 --",
  '1; DROP TABLE blocks; --',
  "1' UNION SELECT key_hash FROM api_keys --",
  '\u0000',
  'a\u0000b',
  '%00',
  'x'.repeat(1500),
  '9'.repeat(400),
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ü \u202e 🙂',
  '١٢٣',
  '１２',
  '-1',
  '-0',
  '2147483648',
  '-9223372036854775809',
  '99999999999999999999999999',
  '1e309',
  '1.5',
  '0x10',
  'NaN',
  'Infinity',
  'true',
  'null',
  '[]',
  '{"$ne":null}',
  '../../etc/passwd',
  '..\\..\\windows',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell-style probe, sent literally.
  '${jndi:ldap://x/a}',
  ' ',
  '',
];

// Raw request targets, sent byte for byte (no client-side normalisation).
const RAW_TARGETS = [
  '/v1/blocks/..%2f..%2fetc',
  '/v1/blocks/..%2F..%2Fetc%2Fpasswd',
  '/v1/blocks/%2e%2e/%2e%2e/etc/passwd',
  '/v1/../../etc/passwd',
  '/v1/blocks/%00',
  '/v1/blocks/%',
  '/v1/blocks/%zz',
  '/v1//blocks',
  '/v1/blocks/1/../../txs',
  '/v1/blocks?limit=1&limit=2',
  '/v1/blocks?limit[]=1',
  '/v1/blocks?limit=%00',
  '/v1/blocks?=&&&=',
  '/v1/search?q=%ff%fe',
  '/v1/txs?cursor=%c3%28',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/v1/openapi.json/..',
  '/v1/api/me?x=1',
];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

function rawGet(base: string, target: string, headers: Record<string, string> = {}): Promise<Answer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: u.hostname, port: u.port, path: target, method: 'GET', headers, agent },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function rawExchange(base: string, bytes: string): Promise<string> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(u.port), u.hostname);
    let text = '';
    sock.setEncoding('utf8');
    sock.on('data', (c) => (text += c));
    sock.on('end', () => resolve(text));
    sock.on('close', () => resolve(text));
    sock.on('error', reject);
    sock.write(bytes);
  });
}

function expectEnvelope(where: string, a: Answer): void {
  expect(a.status, `${where} → ${a.status} ${a.text.slice(0, 200)}`).toBeLessThan(500);
  let body: any;
  try {
    body = JSON.parse(a.text);
  } catch {
    throw new Error(`${where}: body is not JSON: ${a.text.slice(0, 200)}`);
  }
  if (a.status === 200) {
    // The two document routes answer the OpenAPI document itself; everything else the envelope.
    if (body.openapi === undefined) {
      expect(body, where).toMatchObject({ ok: true, meta: expect.any(Object) });
    }
  } else {
    expect(Object.keys(body).sort(), where).toEqual(['error', 'meta', 'ok']);
    expect(body, where).toMatchObject({ ok: false, error: expect.any(String), meta: expect.any(Object) });
    expect(body.meta.requestId, where).toEqual(expect.any(String));
  }
  expect(a.headers['x-ratelimit-limit'], `${where}: rate-limit headers`).toBeDefined();
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

describe('hostile input against every endpoint of the served OpenAPI document (PGlite + devnet)', () => {
  let f: ChainFixture;
  let server: Awaited<ReturnType<typeof serveExplorer>>;
  let closeAccess: () => Promise<void>;
  const cap = captureLog('info');
  let samples: Record<string, string>;

  beforeAll(async () => {
    f = await createChainFixture('pglite', { blocks: 40, txPerBlock: 4 });
    // Fill the market cache from the deterministic demo provider, so the market endpoints answer with data.
    const market = createMarketRefresher({
      sql: f.db.sql,
      provider: createDemoProvider(),
      vsCurrencies: ['usd'],
    });
    expect((await market.refreshOnce()).ok).toBe(true);
    const config = loadConfig({ RATE_LIMIT_ANON: '1000000' });
    const access = await createAccess(config, f.db.sql, cap.log);
    closeAccess = access.close;
    server = await serveExplorer({
      store: createSqlStore(f.db.sql),
      node: directChainNode(f.node, () => f.devnet.height()),
      log: cap.log,
      authenticate: access.authenticate,
      rateLimiter: access.rateLimiter ?? undefined,
      maxHeaderSize: 8192,
      // Below the header bound, so that both refusals can be reached.
      maxUrlLength: 2048,
    });
    const tip = f.devnet.height();
    const block = await f.node.call<any>('getblock', [await f.node.call('getblockhash', [tip]), 2]);
    const tx = (block.rawtx ?? block.tx)[0];
    const truth = f.devnet.truth();
    samples = {
      heightOrHash: String(tip),
      txid: tx.txid,
      address: truth.busyAddresses[0]!,
      poolId: Object.keys(truth.blocksByPool).find((id) => id !== 'unknown') ?? 'unknown',
    };
  });
  afterAll(async () => {
    agent.destroy();
    await server?.close();
    await closeAccess?.();
    await f?.close();
  });

  it('answers every hostile path and query value with an envelope, no 5xx, and changes no table', async () => {
    const dumpKeys = () => f.db.sql.query('SELECT * FROM api_keys ORDER BY id', [], 'test.keys');
    const before = { chain: await canonicalDump(f.db.sql), keys: await dumpKeys() };
    const doc = JSON.parse((await rawGet(server.url, '/v1/openapi.json')).text);
    const targets: string[] = [];
    // The event stream does not end: its refusals of hostile input are tested in src/events/.
    const operations = Object.entries(doc.paths as Record<string, any>).filter(
      ([, item]) => item.get.responses['200'].content['application/json'] !== undefined,
    );
    expect(operations.length).toBeGreaterThan(30);
    for (const [template, item] of operations) {
      const params: { name: string; in: string }[] = item.get.parameters ?? [];
      const valid = template.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(samples[name] ?? 'x'),
      );
      targets.push(valid);
      for (const p of params.filter((q) => q.in === 'path')) {
        for (const v of HOSTILE) {
          targets.push(
            template.replace(/\{(\w+)\}/g, (_, name: string) =>
              encodeURIComponent(name === p.name ? v : (samples[name] ?? 'x')),
            ),
          );
        }
      }
      for (const p of params.filter((q) => q.in === 'query')) {
        for (const v of HOSTILE) targets.push(`${valid}?${p.name}=${encodeURIComponent(v)}`);
      }
      targets.push(`${valid}?${encodeURIComponent("' OR 1=1 --")}=1`);
    }
    targets.push(...RAW_TARGETS);
    const statuses = new Map<number, number>();
    await inBatches(targets, 16, async (target) => {
      const a = await rawGet(server.url, target);
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      expectEnvelope(target.slice(0, 300), a);
    });
    // The run exercised refusals and successes alike, not just one of them.
    expect(statuses.get(400)).toBeGreaterThan(500);
    expect(statuses.get(200)).toBeGreaterThan(30);
    expect(cap.entries().filter((e) => e.level === 'error')).toEqual([]);
    expect({ chain: await canonicalDump(f.db.sql), keys: await dumpKeys() }).toEqual(before);
    // Thousands of requests: minutes on a loaded 2-core machine.
  });

  it('refuses hostile credentials with 400/401, never 5xx', async () => {
    const values = [
      "exk_' OR 1=1 --",
      `exk_${'a'.repeat(10)}_${'a'.repeat(38)}`,
      'x'.repeat(4000),
      '%00',
      'Bearer',
      'exk_aaaaaaaaaa_',
    ];
    for (const v of values) {
      for (const headers of [
        { 'x-api-key': v },
        { authorization: `Bearer ${v}` },
        { authorization: v },
      ] as Record<string, string>[]) {
        const a = await rawGet(server.url, '/v1/api/me', headers);
        expect([400, 401]).toContain(a.status);
        expectEnvelope(`key ${v.slice(0, 30)}`, a);
        expect(a.text).not.toContain(v.length > 8 ? v : '\u0000');
      }
    }
  });

  it('bounds the URL (414) and the headers (431) with envelopes, and answers broken HTTP with one', async () => {
    const long = await rawGet(server.url, `/v1/search?q=${'a'.repeat(3000)}`);
    expect(long.status).toBe(414);
    expectEnvelope('long URL', long);
    expect(JSON.parse(long.text).error).toMatch(/longer than 2048 bytes/);

    const big = await rawExchange(
      server.url,
      `GET /v1/status HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(9000)}\r\n\r\n`,
    );
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    const bigBody = JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4));
    expect(bigBody).toMatchObject({
      ok: false,
      error: 'the request headers are too large',
      meta: expect.any(Object),
    });

    const broken = await rawExchange(server.url, 'GET /v1/status HTTP/1.1\r\nHost x\r\n\r\n');
    expect(broken).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(broken.slice(broken.indexOf('\r\n\r\n') + 4))).toMatchObject({ ok: false });

    // The server still serves after all that.
    expect((await rawGet(server.url, '/v1/status')).status).toBe(200);
  });
});
