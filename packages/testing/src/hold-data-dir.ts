import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Another process holding a data dir. */
export interface DataDirHolder {
  pid: number;
  release(): Promise<void>;
}

/**
 * Holds `dir` from another process, as the demo (`npm start`) does while it runs, through the built
 * `@explorer/db`'s own lock (build it first: scripts/build-stale.mjs db).
 * @example const holder = await holdDataDir(dir); … await holder.release()
 */
export function holdDataDir(dir: string, command = 'explorer-server start'): Promise<DataDirHolder> {
  const script = `import { lockDirectory } from '@explorer/db';
lockDirectory(process.env.HOLD_DIR, process.env.HOLD_COMMAND);
console.log('held');
setInterval(() => {}, 60_000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    // Resolves @explorer/db as this package declares it.
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, HOLD_DIR: dir, HOLD_COMMAND: command },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the data dir holder exited with ${code}: ${stderr}`)));
    child.stdout.once('data', () =>
      resolve({
        pid: child.pid!,
        release: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      }),
    );
  });
}
