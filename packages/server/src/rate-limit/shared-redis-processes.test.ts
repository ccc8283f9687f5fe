import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDataDir } from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { tcpReachable } from '../test-support/tcp-proxy.js';

const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const redisUp = await tcpReachable('127.0.0.1', 6379);
const reason = !redisUp
  ? 'Redis at 127.0.0.1:6379 does not answer'
  : existsSync(bin)
    ? null
    : 'packages/server/dist/bin.js is missing (run pnpm build)';
if (reason) console.log(`[shared-redis-processes.test] ${reason}: test skipped`);

/** Starts `explorer-server start --no-index` as its own process and resolves with the URL it prints. */
function startServer(
  env: Record<string, string>,
  dataDir: string,
): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [bin, 'start', '--no-index', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    proc.stdout?.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, proc });
    });
    proc.stderr?.on('data', (d) => {
      err += d;
    });
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}

describe.skipIf(reason !== null)('two server processes sharing Redis', () => {
  const procs: ChildProcess[] = [];
  const dirs: string[] = [];
  afterAll(() => {
    for (const p of procs) p.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('enforce one anonymous allowance together under concurrent requests: 20 of 60 pass', async () => {
    const env = {
      REDIS_URL: 'redis://127.0.0.1:6379',
      RATE_LIMIT_ANON: '20',
      RATE_LIMIT_WINDOW_SECONDS: '60',
      RATE_LIMIT_PREFIX: `explorer-test:${randomUUID()}`,
      // A loaded CI machine can be slow to answer; the fallback must not count instead of the shared Redis.
      REDIS_COMMAND_TIMEOUT_MS: '10000',
      // Only so the readiness probes below can count in buckets of their own (X-Forwarded-For); the
      // burst sends no such header, so it counts in the bucket of its socket address, 127.0.0.1.
      TRUST_PROXY: 'true',
    };
    const servers = await Promise.all(
      [0, 1].map(async () => {
        const dir = await seedDataDir(mkdtempSync(join(tmpdir(), 'explorer-rl-')));
        dirs.push(dir);
        const s = await startServer(env, dir);
        procs.push(s.proc);
        return s;
      }),
    );
    expect(new Set(servers.map((s) => s.url)).size).toBe(2);
    // Startup waits at most 2 s for Redis; until it answers, the in-memory fallback would count. Probe
    // each process until a request of its own was counted by Redis: /v1/status reports the limiter ok
    // only when the request it answers did not fall back to memory. Each probe comes from another
    // (forwarded) address, so none touches the burst's bucket.
    let probe = 0;
    for (const s of servers) {
      const deadline = Date.now() + 180_000;
      let rateLimit: unknown = null;
      for (;;) {
        probe++;
        const res = await fetch(`${s.url}/v1/status`, {
          headers: { 'x-forwarded-for': `198.18.${probe >> 8}.${probe & 255}` },
        });
        rateLimit = ((await res.json()) as any).status?.rateLimit ?? null;
        if ((rateLimit as { ok?: boolean } | null)?.ok === true || Date.now() >= deadline) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(rateLimit).toMatchObject({ store: 'redis', ok: true });
    }
    const results = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const res = await fetch(`${servers[i % 2]!.url}/v1/api/me`);
        await res.arrayBuffer();
        return { status: res.status, server: i % 2, retryAfter: res.headers.get('retry-after') };
      }),
    );
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    // Each process answered 30 requests. Counting alone, each would let 20 through (40 in all); sharing
    // one Redis bucket, exactly 20 pass in all, and both processes had to refuse some of theirs.
    // Which process wins the race for the allowance is up to the scheduler, so it is not asserted.
    expect(ok).toHaveLength(20);
    expect(limited).toHaveLength(40);
    expect(new Set(limited.map((r) => r.server)).size).toBe(2);
    for (const r of limited) expect(Number(r.retryAfter)).toBeGreaterThan(0);
  });
});
