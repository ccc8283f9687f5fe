import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createExplorerClient } from '@explorer/client';
import type { ChainEvent } from '@explorer/core';
import { openDatabase, readEventsAfter } from '@explorer/db';
import { createDevnet, type Devnet } from '@explorer/devnet';
import {
  freePorts,
  listen,
  seedDataDir,
  TEST_SERVER_SETTINGS,
  type TestServer,
  waitFor,
} from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { type Started, startProcess, stopProcess } from '../test-support/processes.js';

// Rollbacks found when a process starts are events like any other: an SSE client (the SDK, resuming with its
// last id across each restart) and a webhook receiver see every `reorg`, then the new branch — nothing missed,
// nothing twice. Two ways a chain changes under a stopped explorer: the demo's devnet regenerates its history
// without the blocks it mined live, and a node that regenerated its chain (as pearld does with regtest).

const serverBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const reason = existsSync(serverBin) ? null : 'the server is not built (run pnpm build)';
if (reason) console.log(`[restart-reorg] ${reason}: test skipped`);

/** Generous: the waits follow progress (blocks mined, events received); this only ends a stuck run. */
const PATIENCE_MS = 240_000;

interface Observer {
  events: ChainEvent[];
  hooks: ChainEvent[];
  stop(): Promise<void>;
}

/** Follows the event stream through the SDK from the log's start, and receives the webhook's deliveries. */
function observe(baseUrl: string, receiver: { hooks: ChainEvent[] }): Observer {
  const client = createExplorerClient({ baseUrl, retry: { backoffLimitMs: 500 } });
  const abort = new AbortController();
  const events: ChainEvent[] = [];
  const sub = client.events.subscribe({ topics: ['block', 'reorg'], lastEventId: '0', signal: abort.signal });
  const done = (async () => {
    for await (const e of sub) events.push(e);
  })();
  return {
    events,
    hooks: receiver.hooks,
    async stop() {
      abort.abort();
      await done;
    },
  };
}

/**
 * A webhook receiver as docs/webhooks.md shows one: it answers at once and keeps each event once, by its id
 * (delivery is at least once: an attempt whose answer was not recorded in time is made again).
 */
async function webhookReceiver(): Promise<TestServer & { hooks: ChainEvent[]; repeats: number[] }> {
  const hooks: ChainEvent[] = [];
  const seen = new Set<string>();
  const repeats: number[] = [];
  const server = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200).end();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChainEvent;
      if (seen.has(event.id)) repeats.push(Number(req.headers['explorer-delivery-attempt']));
      else hooks.push(event);
      seen.add(event.id);
    });
  });
  return { ...server, hooks, repeats };
}

/** Adds the receiver as a webhook of the data dir's database, as an operator would, before the server starts. */
function addWebhook(env: Record<string, string>, url: string): void {
  const r = spawnSync(process.execPath, [serverBin, 'webhooks', 'add', url, '--events', 'block,reorg'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
}

const blockHeight = (e: ChainEvent) => (e.type === 'block' ? e.data.height : null);

/**
 * Replays block and reorg events as a consumer would keep a chain: a block extends the tip, a reorg cuts it
 * back to its fork point after naming exactly the blocks it removes, and the blocks it adds follow it.
 */
function replay(events: ChainEvent[]): { tip: number; reorgs: number } {
  const chain = new Map<number, string>();
  let tip = -1;
  let reorgs = 0;
  let expectAdded: string[] = [];
  for (const e of events) {
    if (e.type === 'block') {
      if (tip >= 0) expect(e.data.height, `event ${e.id} extends the tip`).toBe(tip + 1);
      if (chain.has(tip)) expect(e.data.previousHash, `event ${e.id} links to the tip`).toBe(chain.get(tip));
      if (expectAdded.length > 0)
        expect(e.data.hash, `event ${e.id} is the reorg's next block`).toBe(expectAdded.shift());
      tip = e.data.height;
      chain.set(tip, e.data.hash);
    } else if (e.type === 'reorg') {
      reorgs++;
      expect(e.data.forkHeight).toBeLessThan(tip);
      if (chain.has(e.data.forkHeight)) expect(e.data.forkHash).toBe(chain.get(e.data.forkHeight));
      // Lowest first, at most 100: everything above the fork point is gone.
      expect(e.data.removed.map((b) => b.height)).toEqual(
        Array.from({ length: Math.min(100, tip - e.data.forkHeight) }, (_, i) => e.data.forkHeight + 1 + i),
      );
      for (const b of e.data.removed) if (chain.has(b.height)) expect(b.hash).toBe(chain.get(b.height));
      for (let h = e.data.forkHeight + 1; h <= tip; h++) chain.delete(h);
      tip = e.data.forkHeight;
      expectAdded = e.data.added.map((b) => b.hash);
    }
  }
  expect(expectAdded, 'every block a reorg added followed as a block event').toEqual([]);
  return { tip, reorgs };
}

/** What the log holds, read from the stopped server's embedded database. */
async function logged(dataDir: string): Promise<ChainEvent[]> {
  const sql = await openDatabase({ dataDir, migrate: false });
  try {
    return (await readEventsAfter(sql, '0', 100_000)).filter((e) => e.type === 'block' || e.type === 'reorg');
  } finally {
    await sql.close();
  }
}

describe.skipIf(reason !== null)('reorgs found at start reach every consumer (built server, PGlite)', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
  });

  /** Starts the server and resolves once it listens; a leftover process is killed at the end. */
  async function start(env: Record<string, string>, port: number): Promise<Started> {
    const server = await startProcess(
      [serverBin, 'start', '--port', String(port)],
      env,
      /listening on (http:\/\/\S+)/,
    );
    cleanup.push(async () => server.proc.kill('SIGKILL'));
    return server;
  }

  const newBlocks = (o: Observer, after: number, n: number) =>
    waitFor(
      `${n} new block events after event ${after}`,
      async () => o.events.filter((e) => e.type === 'block' && Number(e.id) > after).length >= n,
      PATIENCE_MS,
    );
  const lastId = (o: Observer) => Number(o.events.at(-1)?.id ?? 0);

  /**
   * Waits until the webhook has every event the stream had, stops both, and checks that the stream yielded
   * exactly the log's block and reorg events, in order, and the webhook each of them (a repeat only as a later
   * attempt of its delivery).
   */
  async function finish(
    o: Observer,
    receiver: { hooks: ChainEvent[]; repeats: number[] },
    server: Started,
    dir: string,
  ): Promise<void> {
    const last = lastId(o);
    await waitFor(
      'every event delivered to the webhook',
      async () => o.hooks.some((e) => Number(e.id) >= last),
      PATIENCE_MS,
    );
    await o.stop();
    expect(await stopProcess(server.proc)).toBe(0);
    const upTo = (events: ChainEvent[]) => events.filter((e) => Number(e.id) <= last);
    const log = upTo(await logged(dir));
    expect(upTo(o.events)).toEqual(log);
    const hooks = upTo(o.hooks).sort((a, b) => Number(a.id) - Number(b.id));
    expect(hooks).toEqual(log);
    expect(receiver.repeats.every((attempt) => attempt > 1)).toBe(true);
  }

  it('restarting the demo twice: each rollback of its live blocks is one reorg event, then the new branch', {
    timeout: 3 * PATIENCE_MS,
  }, async () => {
    const dir = await seedDataDir(mkdtempSync(join(tmpdir(), 'explorer-restart-reorg-')));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const receiver = await webhookReceiver();
    cleanup.push(receiver.close);
    const [port] = await freePorts(1);
    const env = {
      EXPLORER_DATA_DIR: dir,
      DEVNET_BLOCKS: '40',
      DEVNET_TX_PER_BLOCK: '2',
      DEVNET_INTERVAL_MS: '300',
      INDEXER_POLL_MS: '50',
      LOG_LEVEL: 'warn',
      ...TEST_SERVER_SETTINGS,
    };
    addWebhook(env, `${receiver.url}/hook`);

    let server = await start(env, port!);
    const o = observe(server.match[1]!, receiver);
    await newBlocks(o, 0, 45);
    for (let restart = 1; restart <= 2; restart++) {
      expect(await stopProcess(server.proc)).toBe(0);
      const before = lastId(o);
      server = await start(env, port!);
      // The restarted devnet lacks the blocks mined live: the rollback is announced, then its new blocks.
      await waitFor(
        `the reorg of restart ${restart}`,
        async () => o.events.some((e) => e.type === 'reorg' && Number(e.id) > before),
        PATIENCE_MS,
      );
      await newBlocks(o, lastId(o), 3);
    }
    await finish(o, receiver, server, dir);
    expect(replay(o.events).reorgs).toBe(2);
    expect(
      o.events.filter((e) => e.type === 'reorg').every((e) => e.type === 'reorg' && e.data.forkHeight === 40),
    ).toBe(true);
  });

  it('a node that regenerated its chain from genesis (deeper than 100 blocks, regtest): one reorg, then the new chain', {
    timeout: 3 * PATIENCE_MS,
  }, async () => {
    const dir = await seedDataDir(mkdtempSync(join(tmpdir(), 'explorer-regenerated-')));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const receiver = await webhookReceiver();
    cleanup.push(receiver.close);
    const [port, nodePort] = await freePorts(2);
    const options = { seed: 'regenerated', blocks: 120, txPerBlock: 1, coinbaseMaturity: 5 };
    let devnet: Devnet = createDevnet(options);
    let node = await devnet.listen({ port: nodePort });
    cleanup.push(() => node.close());
    const files = devnet.writeDefinitions(dir);
    const env = {
      EXPLORER_DATA_DIR: dir,
      NODE_RPC_URL: node.url,
      POOLS_FILE: files.poolsFile,
      LABELS_FILE: files.labelsFile,
      INDEXER_POLL_MS: '50',
      LOG_LEVEL: 'warn',
      ...TEST_SERVER_SETTINGS,
    };
    addWebhook(env, `${receiver.url}/hook`);
    const server = await start(env, port!);
    const o = observe(server.match[1]!, receiver);
    await waitFor('the chain indexed', async () => o.events.some((e) => blockHeight(e) === 120), PATIENCE_MS);

    // The node restarts with a chain of its own above the same genesis block.
    await node.close();
    devnet = createDevnet(options);
    const regenerated = devnet.reorg(120, { extra: 5 });
    node = await devnet.listen({ port: nodePort });
    await waitFor(
      'the new chain indexed',
      async () => o.events.some((e) => e.type === 'block' && e.data.hash === devnet.tipHash()),
      PATIENCE_MS,
    );
    await finish(o, receiver, server, dir);
    const reorgs = o.events.filter((e) => e.type === 'reorg');
    expect(reorgs).toHaveLength(1);
    const [reorg] = reorgs;
    expect(reorg?.type === 'reorg' && reorg.data.forkHeight).toBe(0);
    expect(reorg?.type === 'reorg' && reorg.data.removed).toHaveLength(100);
    expect(reorg?.type === 'reorg' && reorg.data.added.map((b) => b.hash)).toEqual(
      regenerated.added.slice(0, 100),
    );
    expect(replay(o.events)).toMatchObject({
      tip: devnet.height(),
      reorgs: 1,
    });
  });
});
