import { createServer as createNetServer } from 'node:net';
import {
  type DirectoryLock,
  DirectoryLockedError,
  dataDirInUse,
  directoryLockHolder,
  lockDirectory,
} from '@explorer/db';
import type { ServerConfig } from '../config/index.js';
import { listenProblem } from './http-listener.js';

/** The one line a data dir held by another process is reported with: the server's flag and variable. */
export function dataDirProblem(err: DirectoryLockedError): string {
  return dataDirInUse(err, '--data-dir (EXPLORER_DATA_DIR)');
}

/**
 * True when this configuration keeps files in the data dir: the embedded database, or the built-in devnet
 * (started only by a process that indexes; an API-only process on PostgreSQL writes nothing there).
 */
export const usesDataDir = (config: ServerConfig) =>
  !config.databaseUrl || (!config.nodeRpcUrl && config.index);

/**
 * What would stop a start at once, found without starting anything: the data dir held by another live
 * process, or the port in use. Null when neither.
 * @example const problem = await preflight(config); if (problem) console.error(problem)
 */
export async function preflight(config: ServerConfig, opts: { http?: boolean } = {}): Promise<string | null> {
  if (usesDataDir(config)) {
    const holder = directoryLockHolder(config.dataDir);
    if (holder) return dataDirProblem(new DirectoryLockedError(config.dataDir, holder));
  }
  if (opts.http === false) return null;
  const probe = createNetServer();
  return new Promise((resolve) => {
    probe.once('error', (err: NodeJS.ErrnoException) =>
      resolve(listenProblem(`${config.host}:${config.port}`, err)),
    );
    probe.listen({ port: config.port, host: config.host, exclusive: true }, () =>
      probe.close(() => resolve(null)),
    );
  });
}

/**
 * Takes the data dir for this process (a second start on it is refused at once, naming the holder).
 * @returns the lock, released on close
 */
export function lockDataDir(config: ServerConfig, command: string): DirectoryLock {
  try {
    return lockDirectory(config.dataDir, command);
  } catch (err) {
    throw err instanceof DirectoryLockedError ? new Error(dataDirProblem(err)) : err;
  }
}
