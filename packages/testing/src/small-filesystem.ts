import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A filesystem of a test's own that can be filled: a tmpfs of a given size, mounted on a fresh temp dir.

/** A mounted small filesystem. */
export interface SmallFilesystem {
  /** Where it is mounted (a fresh temp dir; as root, the postgres user may be given it). */
  dir: string;
  /** Free bytes now. */
  free(): number;
  /** Fills it with a file of its own until `leaveBytes` are free (or fewer, if it already has fewer). */
  fill(leaveBytes: number): void;
  /** Removes that file: the space comes back. */
  unfill(): void;
  /** Unmounts it and removes the temp dir. */
  unmount(): void;
}

const mount = (dir: string, sizeMb: number) =>
  spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0755`, 'tmpfs', dir], { encoding: 'utf8' });

let probed: string | null | undefined;

function probe(): string | null {
  if (process.platform !== 'linux') return 'mounting a tmpfs needs Linux';
  const dir = mkdtempSync(join(tmpdir(), 'explorer-fs-probe-'));
  try {
    const r = mount(dir, 1);
    if (r.status !== 0)
      return `cannot mount a tmpfs here (${(r.stderr || r.error?.message || `exit ${r.status}`).trim()}): mounting needs root`;
    spawnSync('umount', [dir]);
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Why a small filesystem cannot be mounted here (not root, no mount in this sandbox), or null when it can. */
export function smallFilesystemSkipReason(): string | null {
  if (probed === undefined) probed = probe();
  return probed;
}

/**
 * Mounts a tmpfs of `sizeMb` MiB on a fresh temp dir.
 * @example const fs = mountSmallFilesystem(200); fs.fill(10 << 20); …; fs.unfill(); fs.unmount()
 */
export function mountSmallFilesystem(sizeMb: number): SmallFilesystem {
  const dir = mkdtempSync(join(tmpdir(), 'explorer-small-fs-'));
  const r = mount(dir, sizeMb);
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mount -t tmpfs failed: ${r.stderr.trim()}`);
  }
  const filler = join(dir, 'filler');
  const free = () => {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  };
  return {
    dir,
    free,
    fill(leaveBytes) {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(1 << 20, 1);
      try {
        for (let left = free() - leaveBytes; left > 0; left = free() - leaveBytes)
          writeSync(fd, chunk, 0, Math.min(chunk.length, left));
      } finally {
        closeSync(fd);
      }
    },
    unfill: () => rmSync(filler, { force: true }),
    unmount() {
      // A process that still has a file open there keeps it busy: lazily, it goes once that one closes.
      const u = spawnSync('umount', [dir]);
      if (u.status !== 0) spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
