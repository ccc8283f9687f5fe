import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { holdDataDir } from '@explorer/testing';
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

describe('embed-express example: npm start while the demo holds the data dir', () => {
  it('says which process holds it and what to do, in one line, and exits with 1', {
    timeout: 300_000,
  }, async () => {
    const here = fileURLToPath(new URL('.', import.meta.url));
    // `npm start` runs the built packages, as a user's would.
    execFileSync(
      process.execPath,
      [join(here, '../../scripts/build-stale.mjs'), 'chain', 'core', 'db', '--no-declarations'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const dataDir = mkdtempSync(join(tmpdir(), 'explorer-embed-express-'));
    mkdirSync(join(dataDir, 'pgdata')); // an indexed database, as the demo leaves it
    const holder = await holdDataDir(dataDir);
    try {
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !/^(npm_|DATABASE_URL$|EXPLORER_|PORT$)/i.test(k)),
      );
      const outcome = await promisify(execFile)('npm', ['start', '--silent'], {
        cwd: here,
        env: { ...env, EXPLORER_DATA_DIR: dataDir, PORT: '0' },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => err,
      );
      expect(outcome.code).toBe(1);
      // One line, the server's (`explorer-server start` says the same with its flag), and no stack.
      const [line, ...more] = outcome.stderr.trim().split('\n');
      expect(more).toEqual([]);
      expect(line).toMatch(
        /^the data dir \S+ is in use by process \d+ \(explorer-server start, since \S+\); /,
      );
      expect(line).toContain(`${dataDir} is in use by process ${holder.pid} `);
      expect(line).toMatch(/; stop that process, or give this one another data dir \(EXPLORER_DATA_DIR\)$/);
    } finally {
      await holder.release();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
