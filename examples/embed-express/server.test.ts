import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleServer, type ExampleServer } from './server.js';

describe('embed-express example', () => {
  let f: ChainFixture;
  let example: ExampleServer;
  let url: string;

  beforeAll(async () => {
    f = await createChainFixture('pglite');
    example = createExampleServer({ sql: f.db.sql });
    url = await example.listen(0);
  });
  afterAll(async () => {
    await example?.close();
    await f?.close();
  });

  it('keeps the app’s own routes', async () => {
    const res = await fetch(`${url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves /v1/blocks through the middleware with the envelope and request id', async () => {
    const res = await fetch(`${url}/v1/blocks?limit=2`, { headers: { 'x-request-id': 'express-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('express-1');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, meta: { requestId: 'express-1', indexedTip: f.devnet.height() } });
    expect(body.blocks.map((b: { height: number }) => b.height)).toEqual([
      f.devnet.height(),
      f.devnet.height() - 1,
    ]);
  });

  it('follows a cursor through the mounted API', async () => {
    const first = await (await fetch(`${url}/v1/blocks?limit=2`)).json();
    const cursor = encodeURIComponent(first.pagination.nextCursor);
    const second = await (await fetch(`${url}/v1/blocks?limit=2&cursor=${cursor}`)).json();
    expect(second.blocks[0].height).toBe(first.blocks[1].height - 1);
  });

  it('answers unknown /v1 paths with the explorer’s 404 envelope', async () => {
    const res = await fetch(`${url}/v1/nope`);
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.ok).toBe(false);
    expect(body.error).toContain('/v1/nope');
    expect(body.meta.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('answers /latest-block from the typed handlers, in process', async () => {
    const res = await fetch(`${url}/latest-block`);
    expect(res.status).toBe(200);
    const body = await res.json();
    const { body: direct } = await f.get('/v1/blocks?limit=1');
    expect(body).toEqual({
      height: direct.blocks[0].height,
      hash: direct.blocks[0].hash,
      time: direct.blocks[0].time,
      indexedTip: f.devnet.height(),
    });
  });
});
