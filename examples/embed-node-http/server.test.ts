import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleServer, type ExampleServer } from './server.js';

describe('embed-node-http example', () => {
  let f: ChainFixture;
  let app: ExampleServer;
  let url: string;

  beforeAll(async () => {
    f = await createChainFixture('pglite');
    app = createExampleServer({ sql: f.db.sql });
    url = await app.listen(0);
  });
  afterAll(async () => {
    await app?.close();
    await f?.close();
  });

  it('keeps the host server’s own routes', async () => {
    const res = await fetch(`${url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves /v1/blocks from the explorer with its envelope and request id', async () => {
    const res = await fetch(`${url}/v1/blocks?limit=3`, { headers: { 'x-request-id': 'embed-test-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('embed-test-1');
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = await res.json();
    expect(body.ok).toBe(true);
    expect(body.blocks).toHaveLength(3);
    expect(body.blocks[0].height).toBe(f.devnet.height());
    expect(body.pagination.nextCursor).toEqual(expect.any(String));
    expect(body.meta.requestId).toBe('embed-test-1');
    expect(body.meta.indexedTip).toBe(f.devnet.height());
  });

  it('generates a request id when the client sends none', async () => {
    const res = await fetch(`${url}/v1/blocks?limit=1`);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await res.json()).meta.requestId).toBe(id);
  });

  it('answers unknown /v1 paths with the explorer’s 404 envelope', async () => {
    const res = await fetch(`${url}/v1/no-such-thing`);
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body).toMatchObject({ ok: false, error: expect.stringContaining('/v1/no-such-thing') });
    expect(body.meta.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('leaves paths outside /v1 to the host server', async () => {
    const res = await fetch(`${url}/elsewhere`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain');
  });
});
