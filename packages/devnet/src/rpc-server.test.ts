import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnet, type Devnet } from './index.js';

let d: Devnet;
let server: { url: string; close(): Promise<void> };
const auth = `Basic ${Buffer.from('alice:secret').toString('base64')}`;

async function post(body: unknown, headers: Record<string, string> = { authorization: auth }) {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  d = createDevnet({
    dialect: 'bitcoin',
    blocks: 30,
    coinbaseMaturity: 5,
    addressFormat: 'addresses',
  });
  server = await d.listen({ user: 'alice', password: 'secret' });
});
afterAll(async () => server.close());

describe('JSON-RPC over HTTP, Bitcoin Core dialect', () => {
  it('answers Core-style calls', async () => {
    const r = await post({ jsonrpc: '1.0', id: 'a', method: 'getblockcount', params: [] });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ result: 30, error: null, id: 'a' });
    const info = (await post({ id: 1, method: 'getblockchaininfo' })).json.result;
    expect(info).toMatchObject({
      chain: 'devnet',
      blocks: 30,
      headers: 30,
      verificationprogress: 1,
      pruned: false,
    });
    expect(info.chainwork).toMatch(/^[0-9a-f]{64}$/);
  });

  it('uses legacy addresses[] when configured', async () => {
    const hash = (await post({ id: 1, method: 'getblockhash', params: [3] })).json.result;
    const b = (await post({ id: 1, method: 'getblock', params: [hash, 2] })).json.result;
    const spk = b.tx[0].vout[0].scriptPubKey;
    expect(spk.addresses).toHaveLength(1);
    expect(spk.reqSigs).toBe(1);
    expect(spk).not.toHaveProperty('address');
  });

  it('maps errors to Core codes and HTTP statuses', async () => {
    const unknown = await post({ id: 2, method: 'nosuchmethod', params: [] });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({
      result: null,
      error: { code: -32601, message: 'Method not found' },
      id: 2,
    });
    const range = await post({ id: 3, method: 'getblockhash', params: [999] });
    expect(range.status).toBe(500);
    expect(range.json.error).toEqual({ code: -8, message: 'Block height out of range' });
    const badType = await post({ id: 4, method: 'getblockhash', params: ['x'] });
    expect(badType.json.error.code).toBe(-3);
    expect((await post({ id: 5, method: 'getblock', params: ['00'.repeat(32)] })).json.error).toEqual({
      code: -5,
      message: 'Block not found',
    });
    expect((await post({ id: 5, method: 'getblock', params: ['zz'] })).json.error.code).toBe(-8);
    expect(
      (await post({ id: 6, method: 'getrawtransaction', params: ['11'.repeat(32)] })).json.error,
    ).toEqual({
      code: -5,
      message: 'No such mempool or blockchain transaction. Use gettransaction for wallet transactions.',
    });
    const parse = await post('{not json');
    expect(parse.status).toBe(500);
    expect(parse.json.error.code).toBe(-32700);
  });

  it('supports batches', async () => {
    const r = await post([
      { id: 1, method: 'getblockcount' },
      { id: 2, method: 'nope' },
      { id: 3, method: 'getbestblockhash' },
    ]);
    expect(r.status).toBe(200);
    expect(r.json).toHaveLength(3);
    expect(r.json[0]).toEqual({ result: 30, error: null, id: 1 });
    expect(r.json[1].error.code).toBe(-32601);
    expect(r.json[2].result).toBe(d.tipHash());
  });

  it('requires basic auth when configured and only accepts POST', async () => {
    const none = await post({ id: 1, method: 'getblockcount' }, {});
    expect(none.status).toBe(401);
    expect(none.text).toBe('');
    const wrong = await post(
      { id: 1, method: 'getblockcount' },
      { authorization: `Basic ${Buffer.from('alice:nope').toString('base64')}` },
    );
    expect(wrong.status).toBe(401);
    const get = await fetch(server.url, { headers: { authorization: auth } });
    expect(get.status).toBe(405);
  });

  it('mines and reports through control methods', async () => {
    const before = d.height();
    const hashes = (await post({ id: 1, method: 'generate', params: [2] })).json.result;
    expect(hashes).toHaveLength(2);
    expect(d.height()).toBe(before + 2);
    const truth = (await post({ id: 1, method: 'devnet_truth' })).json.result;
    expect(truth.height).toBe(before + 2);
    expect(truth).not.toHaveProperty('balances');
  });
});

describe('JSON-RPC over HTTP(S), pearld dialect', () => {
  let pearl: Devnet;
  let dir: string;
  let cert: string | null = null;
  beforeAll(() => {
    pearl = createDevnet({ blocks: 20, coinbaseMaturity: 5, proofSize: [100, 200] });
    dir = mkdtempSync(join(tmpdir(), 'devnet-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-days',
          '2',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost,IP:127.0.0.1',
          '-keyout',
          join(dir, 'rpc.key'),
          '-out',
          join(dir, 'rpc.cert'),
        ],
        { stdio: 'ignore' },
      );
      cert = readFileSync(join(dir, 'rpc.cert'), 'utf8');
    } catch {
      console.log('openssl is not available: the TLS case is skipped');
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers errors with HTTP 200 and refuses bad credentials with pearld’s 401 body', async () => {
    const s = await pearl.listen({ user: 'u', password: 'p' });
    try {
      const call = (body: unknown, user = 'u:p') =>
        fetch(s.url, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(user).toString('base64')}` },
          body: JSON.stringify(body),
        });
      const missing = await call({ id: 1, method: 'estimatesmartfee', params: [6] });
      expect(missing.status).toBe(200);
      expect(await missing.json()).toMatchObject({ error: { code: -32601, message: 'Method not found' } });
      const denied = await call({ id: 1, method: 'getblockcount', params: [] }, 'u:x');
      expect(denied.status).toBe(401);
      expect(await denied.text()).toBe('401 Unauthorized.\n');
    } finally {
      await s.close();
    }
  });

  it('serves JSON-RPC over TLS with a certificate a client can pin', async (ctx) => {
    if (!cert) return ctx.skip();
    const s = await pearl.listen({
      tls: { key: readFileSync(join(dir, 'rpc.key')), cert },
    });
    try {
      expect(s.url).toMatch(/^https:/);
      const body = await new Promise<string>((resolve, reject) => {
        const req = httpsRequest(s.url, { method: 'POST', ca: cert as string }, (res) => {
          let text = '';
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ id: 1, method: 'getblockcount', params: [] }));
      });
      expect(JSON.parse(body)).toMatchObject({ result: 20 });
      // Without the certificate the connection is refused: it is self-signed.
      await expect(fetch(s.url, { method: 'POST', body: '{}' })).rejects.toThrow();
    } finally {
      await s.close();
    }
  });
});
