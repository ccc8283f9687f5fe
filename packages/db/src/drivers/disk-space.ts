import { statfsSync } from 'node:fs';
import { DatabaseError } from '../sql.js';

/** SQLSTATE `disk_full`: what PostgreSQL answers when a data file cannot grow, and what the embedded guard says. */
export const DISK_FULL = '53100';

/** Free and total bytes of the filesystem holding `dir`; null where it cannot be read. */
export function diskSpace(dir: string): { free: number; total: number } | null {
  try {
    const s = statfsSync(dir);
    return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
  } catch {
    return null;
  }
}

/** Bytes as an operator reads them: `12.3 MB`, `1.2 GB`. */
export function formatBytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)} ${units[u]}`;
}

/**
 * The database cannot write for want of disk space: the embedded guard refused a write (nothing was written),
 * or PostgreSQL could not extend a file. Its code is `53100`, so `DatabaseError.diskFull` is true.
 */
export class DiskFullError extends DatabaseError {
  constructor(
    readonly dataDir: string,
    readonly freeBytes: number,
    readonly totalBytes: number,
    readonly neededBytes: number,
  ) {
    super(
      `out of disk space: the data directory ${dataDir} has ${formatBytes(freeBytes)} free of ${formatBytes(totalBytes)}, and the embedded database writes only while ${formatBytes(neededBytes)} are free; nothing more is written until there is room (free some, or give the data directory a larger disk), and indexing resumes by itself then`,
      DISK_FULL,
      undefined,
    );
  }
}
