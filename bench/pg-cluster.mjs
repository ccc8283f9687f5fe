// A throwaway PostgreSQL cluster for a benchmark, beside (not instead of) the machine's server: initdb and
// pg_ctl from Debian's PostgreSQL binaries, trust auth, loopback only, a free port, its files in a directory of
// the caller's. Run as root, the server runs as the `postgres` user, since PostgreSQL refuses root.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { clusterConf } from './storage-report.mjs';

/** The bin directory of the newest PostgreSQL under /usr/lib/postgresql (Debian's layout), or `explicit`. */
export function postgresBinDir(explicit) {
  if (explicit) return explicit;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      `no PostgreSQL binaries under ${root}/*/bin (apt-get install postgresql, or --pg-bin DIR)`,
    );
  return join(root, versions[0], 'bin');
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** uid and gid of the `postgres` user when this process is root (PostgreSQL will not run as root), else null. */
function serverUser() {
  if (process.getuid?.() !== 0) return null;
  const r = spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' });
  const f = r.stdout?.trim().split(':');
  if (r.status !== 0 || !f || f.length < 4)
    throw new Error('running as root, and there is no postgres user to run the cluster as');
  return { uid: Number(f[2]), gid: Number(f[3]) };
}

/** Runs a command to its end, at most `timeoutMs`; resolves with its exit code and output. */
function run(cmd, args, { user, cwd, timeoutMs, detached = false }) {
  return new Promise((resolve, reject) => {
    const proc = spawn(cmd, args, { cwd, detached, stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
    let output = '';
    proc.stdout.on('data', (d) => {
      output += d;
    });
    proc.stderr.on('data', (d) => {
      output += d;
    });
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    proc.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

/**
 * initdb's a cluster in `dir`/data, configures it (bench/storage-report.mjs clusterConf: `default` leaves
 * initdb's configuration as it is, `tuned` includes `confFile`) and starts it.
 * @param {{ dir: string, pgConfig: 'default' | 'tuned', confFile?: string, memoryBytes?: number, binDir?: string }} o
 * @returns {Promise<{ url: string, port: number, binDir: string, stop: () => Promise<void> }>} `stop` ends the
 *   server (fast, then immediate), once, whatever state it is in.
 */
export async function startCluster({ dir, pgConfig, confFile, memoryBytes, binDir }) {
  const bin = postgresBinDir(binDir);
  const user = serverUser();
  mkdirSync(dir, { recursive: true });
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const opts = { user, cwd: dir };
  const init = await run(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    { ...opts, timeoutMs: 300_000 },
  );
  if (init.code !== 0) throw new Error(`initdb failed (${init.code}):\n${init.output}`);
  const port = await freePort();
  appendFileSync(
    join(data, 'postgresql.conf'),
    clusterConf({ port, socketDir: dir, pgConfig, confFile, memoryBytes }),
  );
  let stopped = null;
  const stop = () => {
    stopped ??= (async () => {
      if (!existsSync(join(data, 'postmaster.pid'))) return;
      const fast = await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '120', 'stop'], {
        ...opts,
        timeoutMs: 150_000,
      });
      if (fast.code === 0 || !existsSync(join(data, 'postmaster.pid'))) return;
      await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', '-t', '60', 'stop'], {
        ...opts,
        timeoutMs: 90_000,
      });
    })();
    return stopped;
  };
  // In a process group of its own, so that a Ctrl-C to the benchmark reaches the server only through stop().
  const started = await run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '180', 'start'], {
    ...opts,
    timeoutMs: 210_000,
    detached: true,
  });
  if (started.code !== 0) {
    await stop();
    const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-20).join('\n') : '';
    throw new Error(`pg_ctl start failed (${started.code}):\n${started.output}\n${tail}`);
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, binDir: bin, stop };
}
