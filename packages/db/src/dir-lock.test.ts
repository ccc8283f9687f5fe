import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DirectoryLockedError, directoryLockHolder, lockDirectory } from './dir-lock.js';

const root = mkdtempSync(join(tmpdir(), 'explorer-dirlock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `d${n++}`);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});
/** A live process that is not this one. */
function otherProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child;
}
const exited = (c: ChildProcess) => new Promise((r) => c.once('exit', r));

function fakeLock(dir: string, fields: Record<string, unknown>) {
  lockDirectory(dir).release(); // creates the directory
  writeFileSync(
    join(dir, 'explorer.lock'),
    JSON.stringify({
      hostname: hostname(),
      startedAt: '2026-01-01T00:00:00.000Z',
      command: 'explorer-server start',
      processStart: null,
      token: 'someone-else',
      ...fields,
    }),
  );
}

describe('lockDirectory', () => {
  it('refuses a directory a live process holds, naming its PID and command', () => {
    const dir = fresh();
    const other = otherProcess();
    fakeLock(dir, { pid: other.pid });
    let error: unknown;
    try {
      lockDirectory(dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DirectoryLockedError);
    expect((error as Error).message).toBe(
      `${dir} is in use by process ${other.pid} (explorer-server start, since 2026-01-01T00:00:00.000Z)`,
    );
    expect(directoryLockHolder(dir)?.pid).toBe(other.pid);
    // The refused attempt left the holder's lock as it was.
    expect(JSON.parse(readFileSync(join(dir, 'explorer.lock'), 'utf8')).token).toBe('someone-else');
  });

  it('takes over the lock of a process killed with SIGKILL', async () => {
    const dir = fresh();
    const other = otherProcess();
    fakeLock(dir, { pid: other.pid });
    other.kill('SIGKILL');
    await exited(other);
    expect(directoryLockHolder(dir)).toBeNull();
    const lock = lockDirectory(dir, 'test');
    const held = JSON.parse(readFileSync(join(dir, 'explorer.lock'), 'utf8'));
    expect(held).toMatchObject({ pid: process.pid, command: 'test' });
    lock.release();
    expect(existsSync(join(dir, 'explorer.lock'))).toBe(false);
  });

  it('takes over a lock whose PID now belongs to another process (a reused PID)', (ctx) => {
    const dir = fresh();
    const other = otherProcess();
    if (!existsSync(`/proc/${other.pid}/stat`)) {
      console.log('skipped: process start times cannot be read here (no /proc)');
      ctx.skip();
    }
    fakeLock(dir, { pid: other.pid, processStart: '1' });
    expect(directoryLockHolder(dir)).toBeNull();
    const lock = lockDirectory(dir, 'test');
    expect(directoryLockHolder(dir)).toMatchObject({ pid: process.pid, command: 'test' });
    lock.release();
  });

  it('clears a takeover guard left by a process killed while taking over', async () => {
    const dir = fresh();
    const dead = otherProcess();
    fakeLock(dir, { pid: dead.pid });
    dead.kill('SIGKILL');
    await exited(dead);
    const guard = join(dir, 'explorer.lock.takeover');
    mkdirSync(guard);
    const past = new Date(Date.now() - 60_000);
    utimesSync(guard, past, past);
    const lock = lockDirectory(dir, 'test');
    expect(directoryLockHolder(dir)).toMatchObject({ pid: process.pid });
    expect(existsSync(guard)).toBe(false);
    lock.release();
  });

  it('names a holder on another host with the way to free the directory by hand', () => {
    const dir = fresh();
    fakeLock(dir, { pid: 4242, hostname: 'elsewhere.invalid' });
    expect(() => lockDirectory(dir)).toThrow(
      `in use by process 4242 on host elsewhere.invalid (if that host no longer runs it, delete ${join(dir, 'explorer.lock')})`,
    );
  });

  it('takes over a lock naming this very PID that this process did not take (a restarted container)', () => {
    const dir = fresh();
    fakeLock(dir, { pid: process.pid });
    lockDirectory(dir).release();
  });

  it('takes over an unreadable lock file', () => {
    const dir = fresh();
    fakeLock(dir, {});
    writeFileSync(join(dir, 'explorer.lock'), '{"pid": 12');
    lockDirectory(dir).release();
  });

  it('counts holders within one process and frees the directory when the last lets go', () => {
    const dir = fresh();
    const a = lockDirectory(dir);
    const b = lockDirectory(dir);
    a.release();
    a.release();
    expect(existsSync(join(dir, 'explorer.lock'))).toBe(true);
    b.release();
    expect(existsSync(join(dir, 'explorer.lock'))).toBe(false);
  });

  it('never removes a lock it does not hold', () => {
    const dir = fresh();
    const lock = lockDirectory(dir);
    const other = otherProcess();
    writeFileSync(
      join(dir, 'explorer.lock'),
      JSON.stringify({
        pid: other.pid,
        hostname: hostname(),
        startedAt: '',
        command: 'x',
        processStart: null,
        token: 't',
      }),
    );
    lock.release();
    expect(existsSync(join(dir, 'explorer.lock'))).toBe(true);
  });

  it.each(['free', 'left locked by a killed process'])(
    'lets exactly one of many processes starting at once take a directory %s',
    async (how) => {
      const dir = fresh();
      lockDirectory(dir).release();
      if (how !== 'free') {
        const dead = otherProcess();
        fakeLock(dir, { pid: dead.pid });
        dead.kill('SIGKILL');
        await exited(dead);
      }
      const url = new URL('./dir-lock.ts', import.meta.url).href;
      // The module is plain enough to run as JavaScript once its types are gone: strip them with esbuild.
      const { transformSync } = await import('esbuild');
      const js = transformSync(readFileSync(new URL(url), 'utf8'), { loader: 'ts', format: 'esm' }).code;
      const file = join(root, 'dir-lock.mjs');
      writeFileSync(file, js);
      const script = `import { lockDirectory } from ${JSON.stringify(file)};
      try { lockDirectory(${JSON.stringify(dir)}); console.log('took'); setInterval(() => {}, 1000); }
      catch (e) { console.log(e.name); }`;
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          children.push(child);
          // The one that took it keeps it until killed, so every other one meets a live holder.
          return new Promise<string>((resolve) =>
            child.stdout.once('data', (d) => resolve(String(d).trim())),
          );
        }),
      );
      expect(outcomes.filter((o) => o === 'took')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'DirectoryLockedError')).toHaveLength(7);
    },
  );
});
