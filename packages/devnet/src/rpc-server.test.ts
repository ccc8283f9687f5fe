import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnet, type Devnet, RpcError } from './index.js';

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
  d = createDevnet({ blocks: 30, coinbaseMaturity: 5, proofSize: [100, 200], addressFormat: 'addresses' });
  server = await d.listen({ user: 'alice', password: 'secret' });
});
afterAll(async () => server.close());

describe('JSON-RPC over HTTP', () => {
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

  it('handles certificates', async () => {
    let withCert: string | undefined;
    let without: string | undefined;
    for (let h = 1; h <= 30 && (!withCert || !without); h++) {
      const hash = (await d.rpc('getblockhash', [h])) as string;
      const b = (await d.rpc('getblock', [hash])) as { certificate?: unknown };
      if (b.certificate) withCert = hash;
      else without = hash;
    }
    const c = (await d.rpc('getblockcertificate', [withCert])) as Record<string, unknown>;
    expect(c).not.toHaveProperty('proof');
    expect(c.proofCommitment).toMatch(/^[0-9a-f]{64}$/);
    const full = (await d.rpc('getblockcertificate', [withCert, true])) as { proof: string };
    expect(full.proof.length).toBeGreaterThanOrEqual(200);
    await expect(d.rpc('getblockcertificate', [without])).rejects.toMatchObject({
      code: -5,
      message: 'Block has no certificate',
    });
    await expect(d.rpc('getblockcertificate', ['00'.repeat(32)])).rejects.toBeInstanceOf(RpcError);
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
