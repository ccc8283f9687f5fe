import { type ChildProcess, spawn } from 'node:child_process';

/**
 * The settings of an explorer a test starts and then polls: no Prometheus listener (every server would try the
 * default port), and no rate limit — a test polls every 20 ms or so, which would use up the anonymous bucket in
 * seconds and then wait out its window. Tests of either set their own.
 * @example startProcess([serverBin, 'start', '--port', '0'], { ...TEST_SERVER_SETTINGS, EXPLORER_DATA_DIR: dir }, /listening/)
 */
export const TEST_SERVER_SETTINGS = { METRICS_PORT: 'off', RATE_LIMIT_ENABLED: 'false' } as const;

/** A started child process, its first stdout match, and everything it printed so far. */
export interface Started {
  proc: ChildProcess;
  match: RegExpExecArray;
  output(): string;
}

/** A started process exited before printing what was awaited. */
export class ProcessExitedError extends Error {
  constructor(
    what: string,
    readonly code: number | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`${what} exited with ${code}:\n${stdout.slice(-500)}\n${stderr.slice(-500)}`);
  }
}

/** Where and how a process is started; by default `node` with this process's environment plus `env`. */
export interface StartOptions {
  /** The program to run (default: this Node.js). */
  command?: string;
  cwd?: string;
  /** `env` is the whole environment, not an addition to this process's. */
  replaceEnv?: boolean;
}

/**
 * Starts `node <args>` (or `opts.command`) and resolves with the first stdout match of `pattern`; rejects with
 * what it printed if the process exits first.
 * @example const { match } = await startProcess([serverBin, 'start', '--port', '0'], env, /listening on (\S+)/)
 */
export function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
  opts: StartOptions = {},
): Promise<Started> {
  const command = opts.command ?? process.execPath;
  const proc = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.replaceEnv ? env : { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    proc.stdout?.on('data', (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve({ proc, match: m, output: () => out + err });
    });
    proc.stderr?.on('data', (d) => {
      err += d;
    });
    proc.on('exit', (code) => reject(new ProcessExitedError(args[0] ?? command, code, out, err)));
  });
}

/**
 * Stops a started process with SIGTERM and resolves with its exit code (at once if it already exited).
 * @example expect(await stopProcess(started.proc)).toBe(0)
 */
export function stopProcess(proc: ChildProcess | undefined): Promise<number | null> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null)
    return Promise.resolve(proc?.exitCode ?? null);
  return new Promise((resolve) => {
    proc.once('exit', (code) => resolve(code));
    proc.kill('SIGTERM');
  });
}
