import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandContext } from './commands/context.js';
import { SETTINGS } from './config/index.js';
import { createProgram } from './program.js';

const dataDir = mkdtempSync(join(tmpdir(), 'explorer-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function fakeContext(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const exits: number[] = [];
  const signals: ((signal: string) => void)[] = [];
  const ctx: CommandContext = {
    env,
    stdout: (l) => out.push(l),
    stderr: (l) => err.push(l),
    exit: (code) => exits.push(code),
    onSignal: (handler) => signals.push(handler),
  };
  return { ctx, out, err, exits, signals };
}

async function run(args: string[], env: Record<string, string> = {}) {
  const f = fakeContext(env);
  const program = createProgram(f.ctx);
  let help = '';
  program.exitOverride();
  for (const c of [program, ...program.commands]) {
    c.exitOverride();
    c.configureOutput({ writeOut: (s) => (help += s), writeErr: (s) => (help += s) });
  }
  try {
    await program.parseAsync(['node', 'explorer-server', ...args]);
  } catch (e) {
    // commander throws after --help under exitOverride; anything else is a real failure.
    if (!String((e as { code?: string }).code).startsWith('commander.')) throw e;
  }
  return { ...f, help };
}

describe('explorer-server', () => {
  it('start --help lists every flag and every variable behind the configuration', async () => {
    const { help } = await run(['start', '--help']);
    for (const flag of ['--port', '--host', '--data-dir', '--log-level', '--trust-proxy', '--no-index']) {
      expect(help).toContain(flag);
    }
    for (const s of SETTINGS) expect(help).toContain(s.env ?? s.flag);
  });

  it('rejects bad configuration with one line on stderr and exit code 2', async () => {
    const { err, exits, out } = await run(['start', '--port', 'abc'], { PORT: '3000' });
    expect(err).toEqual(['config: --port must be an integer from 0 to 65535 (got "abc")']);
    expect(exits).toEqual([2]);
    expect(out).toEqual([]);
    const fromEnv = await run(['index'], { LOG_LEVEL: 'loud' });
    expect(fromEnv.err).toEqual([
      'config: LOG_LEVEL must be one of debug, info, warn, error, silent (got "loud")',
    ]);
    expect(fromEnv.exits).toEqual([2]);
  });

  it('warns about a variable that looks like a setting but is none, and carries on', async () => {
    const env = { EXPLORER_DATADIR: dataDir, PROT: '8080', PATH: '/usr/bin' };
    const { err, exits, out } = await run(
      ['check', '--port', '0', '--data-dir', join(dataDir, 'check')],
      env,
    );
    expect(err).toEqual([
      'config: warning: EXPLORER_DATADIR is not a setting, ignored; did you mean EXPLORER_DATA_DIR?',
      'config: warning: PROT is not a setting, ignored; did you mean PORT?',
    ]);
    expect(out).toEqual([expect.stringMatching(/^ok: 127\.0\.0\.1:0 is free/)]);
    expect(exits).toEqual([0]);
    // Before the one line of a configuration error, too: the misspelt name is often its cause.
    const failing = await run(['check'], {
      DATABASE_READ_URL: 'postgres://replica/x',
      DATABSE_URL: 'postgres://db/x',
    });
    expect(failing.err).toEqual([
      'config: warning: DATABSE_URL is not a setting, ignored; did you mean DATABASE_URL?',
      'config: DATABASE_READ_URL needs DATABASE_URL (the embedded database has no replicas)',
    ]);
    expect(failing.exits).toEqual([2]);
  });

  it('migrate applies the migrations once and says so', async () => {
    const first = await run(['migrate', '--data-dir', dataDir]);
    expect(first.err).toEqual([]);
    // The plan first: every migration by version and name (a fresh database holds no index to rebuild).
    expect(first.out[0]).toBe('schema at version 0; to apply:');
    expect(first.out).toContain('  1 chain');
    expect(first.out.at(-1)).toMatch(/^applied migrations 1(, \d+)*; schema at version \d+$/);
    expect(first.exits).toEqual([0]);
    const again = await run(['migrate'], { EXPLORER_DATA_DIR: dataDir });
    expect(again.out[0]).toMatch(/^nothing to apply; schema at version \d+$/);
  });
});

describe('explorer-server start', () => {
  it('prints the URL, serves, and on SIGTERM closes everything and exits 0', async () => {
    const env = { LOG_LEVEL: 'silent', DEVNET_BLOCKS: '5', DEVNET_INTERVAL_MS: '0', METRICS_PORT: 'off' };
    const started = await run(['start', '--port', '0', '--data-dir', join(dataDir, 'start')], env);
    expect(started.err).toEqual([]);
    expect(started.out).toHaveLength(1);
    const m = /^explorer listening on (http:\/\/127\.0\.0\.1:\d+) \(PGlite at (.+), devnet node\)$/.exec(
      started.out[0]!,
    );
    expect(m?.[2]).toBe(join(dataDir, 'start'));
    const url = m![1]!;
    expect((await fetch(`${url}/`)).status).toBe(200);
    expect(started.signals).toHaveLength(1);
    started.signals[0]!('SIGTERM');
    await expect.poll(() => started.exits, { timeout: 120_000 }).toEqual([0]);
    await expect(fetch(`${url}/`)).rejects.toThrow();
  });
});
