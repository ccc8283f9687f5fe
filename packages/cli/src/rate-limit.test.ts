import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createRuntime, loadConfig, type Runtime } from '@explorer/server';
import { seedDataDir } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from './context.js';
import { runCli } from './program.js';

// A real explorer (embedded PGlite, devnet, indexer, API) with an anonymous limit far below what a walk of
// every transaction needs: 4 requests per 2-second window, pages of 2 rows (a short devnet chain has only
// its coinbase transactions, one a block).
const BLOCKS = 30;
const LIMIT = 4;
const WINDOW_SECONDS = 2;
const PAGE = 2;

const dataDir = mkdtempSync(join(tmpdir(), 'explorer-cli-rate-'));

function memoryIo(baseUrl: string): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s), isTTY: false },
    stderr: { write: (s: string) => (err += s), isTTY: false },
    env: { EXPLORER_BASE_URL: baseUrl },
    signal: new AbortController().signal,
    out: () => out,
    err: () => err,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GETs a path, waiting out 429s itself: the test's own requests share the CLI's anonymous bucket. */
async function getJson(url: string): Promise<any> {
  for (;;) {
    const res = await fetch(url);
    if (res.status !== 429) return res.json();
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
  }
}

/** Waits until the resets of the anonymous bucket, so the next walk starts with a full one. */
async function fullBucket(url: string): Promise<void> {
  const res = await fetch(`${url}/v1/status`);
  await res.arrayBuffer();
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  await sleep(Math.max(0, reset * 1000 - Date.now()) + 100);
}

describe('explorer --all against a server with a tiny anonymous rate limit (PGlite, devnet)', () => {
  let runtime: Runtime;
  let url: string;
  let txCount = 0;

  beforeAll(async () => {
    const config = loadConfig({
      EXPLORER_DATA_DIR: await seedDataDir(dataDir),
      PORT: '0',
      METRICS_PORT: 'off',
      DEVNET_BLOCKS: String(BLOCKS),
      DEVNET_INTERVAL_MS: '0',
      INDEXER_POLL_MS: '50',
      RATE_LIMIT_ANON: String(LIMIT),
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    });
    runtime = await createRuntime(config, { log: createLogger({ level: 'silent' }) });
    url = runtime.url!;
    // Until the transactions of every block are indexed; then the list's length is the blocks' txCount sum.
    for (const end = Date.now() + 300_000; ; await sleep(200)) {
      const body = await getJson(`${url}/v1/blocks?limit=100`);
      if (body.meta?.txIndexedTip === BLOCKS && body.blocks?.[0]?.height === BLOCKS) {
        txCount = body.blocks.reduce((n: number, b: { txCount: number }) => n + b.txCount, 0);
        break;
      }
      if (Date.now() > end) throw new Error(`the index did not reach ${BLOCKS}`);
    }
  });

  afterAll(async () => {
    await runtime?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('txs --all waits for Retry-After, says so on stderr, and prints every row once', async () => {
    const pages = Math.ceil(txCount / PAGE);
    expect(pages).toBeGreaterThan(2 * LIMIT);
    await fullBucket(url);
    const io = memoryIo(url);
    const started = Date.now();
    const code = await runCli(['txs', '--all', '--ndjson', '--limit', String(PAGE)], io);
    const elapsed = Date.now() - started;
    expect(io.err()).not.toMatch(/^error/m);
    expect(code).toBe(0);
    const rows = io
      .out()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(txCount);
    expect(new Set(rows.map((t) => t.txid)).size).toBe(txCount);
    const notices = io.err().split('\n').filter(Boolean);
    // At least one wait per exhausted window, each announced on a line of its own.
    expect(notices.length).toBeGreaterThanOrEqual(Math.floor(pages / LIMIT) - 1);
    // Retry-After counts whole seconds to the window's end, so it may say one more than the window.
    for (const line of notices) expect(line).toMatch(/^rate limited; waiting [1-3] s \(Retry-After\)$/);
    expect(elapsed).toBeGreaterThanOrEqual(((notices.length - 1) * WINDOW_SECONDS * 1000) / 2);
  });

  it('--max-wait 0 stops at the first 429 with exit 6, after the rows it got', async () => {
    await fullBucket(url);
    const io = memoryIo(url);
    const code = await runCli(['txs', '--all', '--ndjson', '--limit', String(PAGE), '--max-wait', '0'], io);
    expect(code).toBe(6);
    // Whole pages, one per request the bucket allowed before the first 429: at least a full bucket's worth, and
    // more when the walk outlasted its window on a busy machine (the next window's requests are allowed too).
    const rows = io
      .out()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).txid as string);
    expect(rows.length % PAGE).toBe(0);
    expect(rows.length).toBeGreaterThanOrEqual(LIMIT * PAGE);
    expect(rows.length).toBeLessThan(txCount);
    expect(new Set(rows).size).toBe(rows.length);
    expect(io.err()).toMatch(
      /^error: rate limit exceeded; retry after \d+ s \(Retry-After \d+ s is longer than --max-wait 0 s\) \(requestId [\w-]+\)\n$/,
    );
  });
});
