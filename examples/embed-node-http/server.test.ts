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

describe('embed-node-http example: npm start while the demo holds the data dir', () => {
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
    const dataDir = mkdtempSync(join(tmpdir(), 'explorer-embed-node-http-'));
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
