import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ChainEvent,
  createExplorerClient,
  ExplorerApiError,
  ExplorerError,
  ExplorerStreamClosedError,
} from '@explorer/client';
import { createLogger, createRuntime, loadConfig, type Runtime } from '@explorer/server';
import { seedDataDir, TEST_SERVER_SETTINGS, waitFor } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../context.js';
import { runCli } from '../program.js';

// A real explorer (embedded PGlite, a devnet mining a block every 150 ms, the indexer, the event hub and
// /v1/events): the SDK and `explorer watch` against the endpoint itself rather than a stand-in.
const BLOCKS = 10;
const dataDir = mkdtempSync(join(tmpdir(), 'explorer-cli-watch-'));

/** The first event of `events`, then a break. */
async function first(events: AsyncIterable<ChainEvent>): Promise<ChainEvent | null> {
  for await (const e of events) return e;
  return null;
}

/** The events of `events` up to and including the block event at `height`. */
async function untilHeight(events: AsyncIterable<ChainEvent>, height: number): Promise<ChainEvent[]> {
  const out: ChainEvent[] = [];
  for await (const e of events) {
    out.push(e);
    if (e.type === 'block' && e.data.height >= height) break;
  }
  return out;
}

/**
 * A TCP proxy to `target` that cuts its first connection once `cutAfter` bytes came back from the server
 * (mid-event, most likely): a dropped network between a client and the real server.
 */
async function cuttingProxy(
  target: URL,
  cutAfter: number,
): Promise<{ url: string; cuts: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const state = { cuts: 0 };
  const server: Server = createServer((client) => {
    const n = ++connections;
    const up = connect(Number(target.port), target.hostname);
    for (const s of [client, up]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(up);
    let seen = 0;
    up.on('data', (chunk: Buffer) => {
      if (n === 1 && seen + chunk.length > cutAfter) {
        client.write(chunk.subarray(0, Math.max(0, cutAfter - seen)));
        state.cuts += 1;
        client.destroy();
        up.destroy();
        return;
      }
      seen += chunk.length;
      client.write(chunk);
    });
    up.on('end', () => client.end());
    client.on('close', () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get cuts() {
      return state.cuts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('SDK subscriptions and explorer watch against the real /v1/events (PGlite, devnet)', () => {
  let runtime: Runtime;
  let url: string;
  /** The block and reorg events of the log up to `height`, read once from the start. */
  let reference: ChainEvent[];
  let height: number;

  // Starting the explorer can take more than a minute when the machine's cores are busy with other work.
  beforeAll(async () => {
    const config = loadConfig({
      EXPLORER_DATA_DIR: await seedDataDir(dataDir),
      PORT: '0',
      DEVNET_BLOCKS: String(BLOCKS),
      DEVNET_TX_PER_BLOCK: '2',
      DEVNET_INTERVAL_MS: '150',
      INDEXER_POLL_MS: '50',
      ...TEST_SERVER_SETTINGS,
      EVENTS_MAX_STREAMS_ANON: '50',
    });
    runtime = await createRuntime(config, { log: createLogger({ level: 'silent' }) });
    url = runtime.url!;
    const client = createExplorerClient({ baseUrl: url });
    height = await waitFor('the index to pass the devnet’s first blocks', async () => {
      const { blocks } = await client.blocks.list({ limit: 1 });
      return blocks[0] && blocks[0].height >= BLOCKS + 2 ? blocks[0].height : null;
    });
    reference = await untilHeight(client.events.subscribe({ lastEventId: '0' }), height);
  });

  afterAll(async () => {
    await runtime?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('replays the log in id order: every block up to the tip once, then live ones as they are mined', async () => {
    const ids = reference.map((e) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(ids).size).toBe(ids.length);
    const heights = reference
      .filter((e) => e.type === 'block')
      .map((e) => (e.type === 'block' ? e.data.height : -1));
    expect(heights.at(-1)).toBe(height);
    expect(new Set(heights).size).toBe(heights.length);

    // From now on (no lastEventId): blocks mined after the subscription opened.
    const live = await untilHeight(createExplorerClient({ baseUrl: url }).events.subscribe(), height + 2);
    expect(live.length).toBeGreaterThan(0);
    for (const e of live) expect(BigInt(e.id)).toBeGreaterThan(ids.at(-1)!);
  });

  it('a client that breaks off and resumes with its lastEventId misses nothing and sees nothing twice', async () => {
    const client = createExplorerClient({ baseUrl: url });
    const first = client.events.subscribe({ lastEventId: '0' });
    const head: ChainEvent[] = [];
    for await (const e of first) {
      head.push(e);
      if (head.length === 5) break;
    }
    const rest = await untilHeight(client.events.subscribe({ lastEventId: first.lastEventId }), height);
    expect([...head, ...rest]).toEqual(reference);
  });

  it('a connection cut mid-stream is resumed by the SDK itself, with the same result', async () => {
    const proxy = await cuttingProxy(new URL(url), 3_000);
    try {
      const client = createExplorerClient({ baseUrl: proxy.url, retry: { backoffMs: 10 } });
      const retries: unknown[] = [];
      const got = await untilHeight(
        client.events.subscribe({ lastEventId: '0', onRetry: (r) => retries.push(r.error) }),
        height,
      );
      expect(proxy.cuts).toBe(1);
      expect(retries).toHaveLength(1);
      expect(got).toEqual(reference);
    } finally {
      await proxy.close();
    }
  });

  it('address subscriptions get address events cut to the addresses; address without addresses is a 400', async () => {
    const client = createExplorerClient({ baseUrl: url });
    const { blocks } = await client.blocks.list({ limit: 1 });
    const miner = blocks[0]!.miner.address!;
    const event = await first(
      client.events.subscribe({ topics: ['address'], addresses: [miner], lastEventId: '0' }),
    );
    expect(event?.type).toBe('address');
    if (event?.type === 'address') for (const a of event.data.activity) expect(a.address).toBe(miner);

    const err = await first(client.events.subscribe({ topics: ['address'] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExplorerApiError);
    expect(err).toMatchObject({
      status: 400,
      message: 'the address topic needs addresses: name the addresses to track',
    });
  });

  it('explorer watch blocks --json --from 0 prints the same events as NDJSON and exits 0 on Ctrl-C', async () => {
    let out = '';
    let err = '';
    const interrupt = new AbortController();
    const io: CliIo = {
      stdout: {
        write: (s: string) => {
          out += s;
          if (out.split('\n').length > reference.length) interrupt.abort();
        },
        isTTY: false,
      },
      stderr: { write: (s: string) => (err += s), isTTY: false },
      env: { EXPLORER_BASE_URL: url },
      signal: interrupt.signal,
    };
    const code = await runCli(['watch', 'blocks', '--json', '--from', '0'], io);
    expect(code).toBe(0);
    const lines = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ChainEvent);
    expect(lines.slice(0, reference.length)).toEqual(reference);
    expect(err).toMatch(/^stopped; resume with --from \d+\n$/);
  });

  it('explorer watch --from past the newest event says once that it waits for it, and how far the log is', async () => {
    const newest = BigInt(reference.at(-1)!.id);
    const from = String(newest + 1_000_000n);
    let err = '';
    const interrupt = new AbortController();
    const io: CliIo = {
      stdout: { write: () => true, isTTY: false },
      stderr: {
        write: (s: string) => {
          err += s;
          if (err.includes('waiting')) interrupt.abort();
        },
        isTTY: false,
      },
      env: { EXPLORER_BASE_URL: url },
      signal: interrupt.signal,
    };
    const code = await runCli(['watch', 'blocks', '--json', '--from', from], io);
    expect(code).toBe(0);
    const said = new RegExp(
      `^waiting for events after ${from}; the newest the server holds is (\\d+)\nstopped; resume with --from ${from}\n$`,
    ).exec(err);
    expect(said, err).not.toBeNull();
    // The log goes on growing while the test runs: at least what the reference read, never past --from.
    expect(BigInt(said![1]!)).toBeGreaterThanOrEqual(newest);
    expect(BigInt(said![1]!)).toBeLessThan(BigInt(from));
  });

  // Last: it stops the server.
  it('a server shutting down says `close` (shutdown); the SDK then tries to reconnect', async () => {
    const stop = new AbortController();
    const told: unknown[] = [];
    const got: ChainEvent[] = [];
    const sub = createExplorerClient({ baseUrl: url }).events.subscribe({
      signal: stop.signal,
      onRetry: (r) => {
        told.push(r.error);
        if (told.length === 2) stop.abort();
      },
    });
    const reading = (async () => {
      for await (const e of sub) got.push(e);
    })();
    await waitFor('a live block', async () => got.length > 0);
    await runtime.close();
    await reading;
    expect(told[0]).toBeInstanceOf(ExplorerStreamClosedError);
    expect((told[0] as ExplorerStreamClosedError).code).toBe('shutdown');
    // The server is gone: refused, or refused by the draining server; either is retried.
    expect(told[1]).toBeInstanceOf(ExplorerError);
    expect(sub.lastEventId).toBe(got.at(-1)!.id);
  });
});
