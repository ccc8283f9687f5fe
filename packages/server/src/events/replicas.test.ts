import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChainEvent } from '@explorer/core';
import { createDevnet, type Devnet } from '@explorer/devnet';
import {
  freePorts,
  getJson,
  pgSkipReason,
  scratchDatabase,
  TEST_SERVER_SETTINGS,
  waitFor,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcess } from '../test-support/processes.js';

// Two API processes (start --no-index) and one indexer (index) share PostgreSQL and a Redis this test starts
// and stops: a client on each API process sees the same events in the same order; with Redis down each keeps
// serving its clients from the event log and says so in /v1/status.

const serverBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const redisServer = spawnSync('redis-server', ['--version']).status === 0;
const reason =
  pgSkipReason() ??
  (existsSync(serverBin) ? null : 'the server is not built (run pnpm build)') ??
  (redisServer ? null : 'no redis-server binary to start a Redis of its own');
if (reason) console.log(`[event replicas] ${reason}: test skipped`);

/** A Server-Sent Events reader that keeps every event it receives. */
async function subscribe(url: string): Promise<{ events: ChainEvent[]; close(): void }> {
  const controller = new AbortController();
  const res = await fetch(`${url}/v1/events?topics=block,reorg`, { signal: controller.signal });
  if (res.status !== 200) throw new Error(`subscribing: ${res.status} ${await res.text()}`);
  const events: ChainEvent[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((l) => l.startsWith('data: '));
        if (data && /^id: /m.test(buffer.slice(0, end))) events.push(JSON.parse(data.slice(6)));
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
      }
    }
  })();
  return { events, close: () => controller.abort() };
}

describe.skipIf(reason !== null)('live events across API replicas sharing Redis (pg, built server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'explorer-event-replicas-'));
  const cleanup: (() => Promise<unknown> | unknown)[] = [];
  let devnet: Devnet;
  let redis: ChildProcess;
  const api: string[] = [];

  const status = async (url: string) => (await getJson(`${url}/v1/status`)).body.status;
  const indexed = (height: number) =>
    waitFor(`both replicas at ${height}`, async () => {
      const s = await Promise.all(api.map(status));
      return s.every((x) => x.indexer.tipHeight === height && x.indexer.tipHash === devnet.tipHash());
    });

  beforeAll(async () => {
    const [redisPort] = await freePorts(1);
    redis = spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    cleanup.push(() => redis.kill('SIGKILL'));
    devnet = createDevnet({ seed: 'event-replicas', blocks: 30, txPerBlock: 3, coinbaseMaturity: 5 });
    const node = await devnet.listen({ port: 0 });
    cleanup.push(node.close);
    const files = devnet.writeDefinitions(dir);
    const db = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'event_replicas');
    cleanup.push(db.drop);
    const env = {
      DATABASE_URL: db.url,
      NODE_RPC_URL: node.url,
      POOLS_FILE: files.poolsFile,
      LABELS_FILE: files.labelsFile,
      EXPLORER_DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      INDEXER_POLL_MS: '50',
      ...TEST_SERVER_SETTINGS,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REDIS_COMMAND_TIMEOUT_MS: '200',
    };
    const indexer = await startProcess([serverBin, 'index'], env, /indexer running/);
    cleanup.push(() => indexer.proc.kill('SIGKILL'));
    for (let i = 0; i < 2; i++) {
      const server = await startProcess(
        [serverBin, 'start', '--no-index', '--port', '0'],
        env,
        /listening on (http:\/\/\S+)/,
      );
      cleanup.push(() => server.proc.kill('SIGKILL'));
      api.push(server.match[1]!);
    }
    await indexed(devnet.height());
    await waitFor('both replicas on Redis', async () =>
      (await Promise.all(api.map(status))).every((s) => s.events?.source === 'redis' && s.events.redis.ok),
    );
  });
  afterAll(async () => {
    for (const c of cleanup.reverse()) await Promise.resolve(c()).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  it('a client on each replica sees the same events in the same order, each once; with Redis down too', async () => {
    const clients = await Promise.all(api.map(subscribe));
    const from = devnet.height();
    const mined: string[] = [];
    for (let i = 1; i <= 3; i++) {
      mined.push(...devnet.mine(1));
      await indexed(from + i);
    }
    await waitFor('three blocks on each', async () => clients.every((c) => c.events.length >= 3));
    const ids = (c: { events: ChainEvent[] }) => c.events.map((e) => e.id);
    expect(ids(clients[1]!)).toEqual(ids(clients[0]!));
    expect(clients[0]!.events.map((e) => (e.type === 'block' ? e.data.height : -1))).toEqual([
      from + 1,
      from + 2,
      from + 3,
    ]);

    // Redis goes away: each replica says so, and keeps serving its clients from the event log.
    redis.kill('SIGKILL');
    await waitFor('both replicas to report Redis down', async () =>
      (await Promise.all(api.map(status))).every(
        (s) => s.events.source === 'database' && !s.events.redis.ok && s.degraded.includes('redis'),
      ),
    );
    for (let i = 4; i <= 5; i++) {
      mined.push(...devnet.mine(1));
      await indexed(from + i);
    }
    await waitFor('five blocks on each', async () => clients.every((c) => c.events.length >= 5));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(ids(clients[1]!)).toEqual(ids(clients[0]!));
    expect(new Set(ids(clients[0]!)).size).toBe(5);
    expect(clients[0]!.events.map((e) => (e.type === 'block' ? e.data.hash : ''))).toEqual(mined);
    for (const c of clients) c.close();
  });
});
