import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePorts } from './http.js';

// PostgreSQL clusters of a test's own, on 127.0.0.1 at free ports, with data dirs under the test's temp dir:
// a primary, and streaming replicas of it made with pg_basebackup. Tuned for tests (no fsync), not for data.

/** Where the server binaries are: `pg_config --bindir`, else the newest Debian install. */
function binDir(): string | null {
  const probe = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const fromConfig = probe.status === 0 ? probe.stdout.trim() : null;
  if (fromConfig && existsSync(join(fromConfig, 'pg_ctl'))) return fromConfig;
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return null;
  const versions = readdirSync(debian)
    .filter((v) => existsSync(join(debian, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(debian, versions[0], 'bin') : null;
}

/** The server refuses to run as root: as root, the binaries run as the `postgres` user. */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Why clusters cannot be started here, or null when they can. */
export function postgresClusterSkipReason(): string | null {
  if (!binDir()) return 'no PostgreSQL server binaries (pg_ctl, initdb, pg_basebackup) found';
  if (process.getuid?.() === 0 && spawnSync('id', ['postgres']).status !== 0)
    return 'running as root, and there is no postgres user to run the server as';
  return null;
}

/** A running cluster of the test's own. */
export interface PostgresCluster {
  port: number;
  dataDir: string;
  /** A connection URL to `database` on this cluster. */
  url(database?: string): string;
  /** Starts it again after stop(). */
  start(): Promise<void>;
  /** Stops it (fast shutdown: sessions are ended). */
  stop(): Promise<void>;
}

function run(bin: string, args: string[]): string {
  const dir = binDir();
  if (!dir) throw new Error(postgresClusterSkipReason() ?? 'no PostgreSQL');
  const user = runAs();
  const [command, argv] = user
    ? ['runuser', ['-u', 'postgres', '--', join(dir, bin), ...args]]
    : [join(dir, bin), args];
  const r = spawnSync(command as string, argv as string[], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0)
    throw new Error(`${bin} ${args.join(' ')} failed (${r.status}): ${(r.stderr || r.stdout).slice(-1500)}`);
  return r.stdout;
}

/** A directory the server's user owns (its parents must let that user through: give a fresh temp dir). */
function ownDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const user = runAs();
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

function cluster(dataDir: string, port: number): PostgresCluster {
  const ctl = (...args: string[]) =>
    run('pg_ctl', ['-D', dataDir, '-l', join(dataDir, 'server.log'), ...args]);
  return {
    port,
    dataDir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => void ctl('-w', '-t', '60', 'start'),
    stop: async () => void ctl('-w', '-t', '60', '-m', 'fast', 'stop'),
  };
}

/** Settings of every cluster: its port, loopback only, sockets in its own dir, streaming on. */
function configure(dataDir: string, port: number): void {
  appendFileSync(
    join(dataDir, 'postgresql.conf'),
    [
      '',
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dataDir}'`,
      'wal_level = replica',
      'max_wal_senders = 4',
      'hot_standby = on',
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'shared_buffers = 64MB',
      '',
    ].join('\n'),
  );
}

/**
 * Creates and starts a primary in `dir/primary` (`dir`: a directory of the clusters' own, such as a fresh
 * mkdtemp; as root it is handed to the postgres user) (trust authentication, replication allowed from 127.0.0.1).
 * @example const primary = await startPrimary(tmp); primary.url('postgres'); await primary.stop()
 */
export async function startPrimary(dir: string): Promise<PostgresCluster> {
  const dataDir = join(ownDir(dir), 'primary');
  const [port] = (await freePorts(1)) as [number];
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  configure(dataDir, port);
  const primary = cluster(dataDir, port);
  await primary.start();
  return primary;
}

/**
 * Makes a streaming replica of `primary` in `dir/<name>` with pg_basebackup (-R: it follows the primary as a
 * hot standby) and starts it.
 */
export async function startReplica(
  primary: PostgresCluster,
  dir: string,
  name = 'replica',
): Promise<PostgresCluster> {
  const dataDir = join(ownDir(dir), name);
  const [port] = (await freePorts(1)) as [number];
  run('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
    // An immediate checkpoint: the default spreads it over minutes.
    '--checkpoint=fast',
    '--no-sync',
  ]);
  configure(dataDir, port);
  const replica = cluster(dataDir, port);
  await replica.start();
  return replica;
}
