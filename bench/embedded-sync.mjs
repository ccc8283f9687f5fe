#!/usr/bin/env node
// The embedded demo during its first sync, as a user meets it: how long /v1/status takes while PGlite is
// being written, how fast the sync goes, and how long a Ctrl-C takes to stop it.
//
//   node bench/embedded-sync.mjs [--blocks 3000] [--tx-per-block 8] [--interrupt-at 0.5]
//
// Starts the built server (`pnpm build` first) on a fresh data dir with a devnet of --blocks blocks and no live
// mining, asks /v1/status every 200 ms until the index reaches --interrupt-at of the chain (1: until synced),
// then sends SIGINT and measures the time to the process's exit. Prints one JSON line.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machineInfo } from './machine.mjs';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '3000' },
    'tx-per-block': { type: 'string', default: '8' },
    'interrupt-at': { type: 'string', default: '0.5' },
  },
});
const blocks = Number(values.blocks);
const interruptAt = Math.ceil(blocks * Number(values['interrupt-at']));
const dir = mkdtempSync(join(tmpdir(), 'explorer-bench-embedded-'));
const server = spawn(
  process.execPath,
  [new URL('../packages/server/dist/bin.js', import.meta.url).pathname, 'start', '--port', '0'],
  {
    env: {
      ...process.env,
      EXPLORER_DATA_DIR: dir,
      DEVNET_BLOCKS: String(blocks),
      DEVNET_TX_PER_BLOCK: values['tx-per-block'],
      DEVNET_INTERVAL_MS: '0',
      LOG_LEVEL: 'info',
      RATE_LIMIT_ENABLED: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let output = '';
server.stdout.on('data', (d) => {
  output += d;
});
server.stderr.on('data', (d) => {
  output += d;
});
const exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
const url = await new Promise((resolve, reject) => {
  const timer = setInterval(() => {
    const m = /listening on (http:\/\/\S+)/.exec(output);
    if (m) {
      clearInterval(timer);
      resolve(m[1]);
    }
  }, 50);
  exited.then((code) => reject(new Error(`the server exited with ${code}:\n${output.slice(-2000)}`)));
});

const latencies = [];
let tip = -1;
const began = performance.now();
// Bounded: at most 3,000 requests (10 minutes at one every 200 ms).
for (let i = 0; i < 3_000 && tip < interruptAt; i++) {
  const t = performance.now();
  const body = await fetch(`${url}/v1/status`)
    .then((r) => r.json())
    .catch(() => null);
  latencies.push(performance.now() - t);
  tip = body?.status?.indexer?.tipHeight ?? tip;
  await new Promise((r) => setTimeout(r, 200));
}
const syncSeconds = (performance.now() - began) / 1000;
const signalled = performance.now();
server.kill('SIGINT');
const code = await exited;
const stopMs = performance.now() - signalled;
rmSync(dir, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
const progress = output.split('\n').filter((l) => l.includes('"msg":"syncing: '));
console.log(
  JSON.stringify({
    machine: machineInfo(),
    blocks,
    indexedAtInterrupt: tip,
    seconds: Math.round(syncSeconds * 10) / 10,
    statusMs: {
      n: latencies.length,
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      max: Math.round(latencies.at(-1)),
    },
    progressLines: progress.length,
    sigint: { exitCode: code, stopMs: Math.round(stopMs), saidStopping: /SIGINT: stopping/.test(output) },
    saidSynced: output.includes('"msg":"indexer synced"'),
  }),
);
