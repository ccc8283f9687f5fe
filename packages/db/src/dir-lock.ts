import { randomUUID } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/** The process that holds a directory, as its lock file says. */
export interface DirectoryLockHolder {
  pid: number;
  hostname: string;
  /** ISO time the lock was taken. */
  startedAt: string;
  /** What the holder runs, e.g. `explorer-server start`. */
  command: string;
  /** Linux: the holder's start time in clock ticks since boot, which tells a reused PID from the holder. */
  processStart: string | null;
  /** Unique per lock taken, so a process never mistakes another's lock (or a dead one's) for its own. */
  token: string;
}

/** A directory held by this process; release() gives it up (once every holder in this process has). */
export interface DirectoryLock {
  readonly dir: string;
  release(): void;
}

/** The directory is held by another live process. */
export class DirectoryLockedError extends Error {
  override readonly name = 'DirectoryLockedError';
  constructor(
    readonly dir: string,
    readonly holder: DirectoryLockHolder,
  ) {
    // A holder on another host (a shared volume) cannot be checked from here: say how to free it by hand.
    const where =
      holder.hostname === hostname()
        ? ''
        : ` on host ${holder.hostname} (if that host no longer runs it, delete ${join(dir, LOCK_FILE)})`;
    super(`${dir} is in use by process ${holder.pid}${where} (${holder.command}, since ${holder.startedAt})`);
  }
}

/**
 * The one line a data dir held by another process is reported with; `setting` names how to choose another.
 * @example if (err instanceof DirectoryLockedError) console.error(dataDirInUse(err, 'data dir (EXPLORER_DATA_DIR)'))
 */
export function dataDirInUse(err: DirectoryLockedError, setting: string): string {
  return `the data dir ${err.message}; stop that process, or give this one another ${setting}`;
}

const LOCK_FILE = 'explorer.lock';
/** A takeover left behind by a process killed in its few milliseconds is cleared after this long. */
const STALE_TAKEOVER_MS = 10_000;

/** Locks this process holds, by resolved directory: taking one twice is counted, not refused. */
const held = new Map<string, { token: string; count: number; file: string }>();
const heldTokens = new Set<string>();
let exitHook = false;

function processStart(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses); starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function readHolder(file: string): DirectoryLockHolder | null | 'absent' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw err;
  }
  try {
    const h = JSON.parse(text) as DirectoryLockHolder;
    return Number.isInteger(h.pid) && typeof h.token === 'string' ? h : null;
  } catch {
    return null;
  }
}

/** Whether the process a lock names still runs. A holder on another host is taken to be alive. */
function alive(h: DirectoryLockHolder): boolean {
  if (h.hostname !== hostname()) return true;
  // Our own PID in a lock we did not take: a previous life of this PID (a restarted container) left it.
  if (h.pid === process.pid) return heldTokens.has(h.token);
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const start = h.processStart === null ? null : processStart(h.pid);
  return start === null || start === h.processStart;
}

function canonical(dir: string): string {
  mkdirSync(dir, { recursive: true });
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/**
 * The live process holding `dir`, or null when it is free (no lock, or one left by a process that is gone).
 * @example const holder = directoryLockHolder('.explorer'); if (holder) console.log(holder.pid)
 */
export function directoryLockHolder(dir: string): DirectoryLockHolder | null {
  const h = readHolder(join(resolve(dir), LOCK_FILE));
  return h !== null && h !== 'absent' && alive(h) ? h : null;
}

/**
 * Takes `dir` for this process, or throws DirectoryLockedError naming the live process that has it. A lock
 * left by a process that died (kill -9, a crash, a reboot) is taken over. The lock file is put in place with
 * link(2), which fails when the name exists, so two processes starting together cannot both succeed; taking
 * over a dead process's lock is serialized by a mkdir(2) beside it.
 * @example const lock = lockDirectory('.explorer', 'explorer-server start'); … lock.release()
 */
export function lockDirectory(dir: string, command = 'explorer'): DirectoryLock {
  const real = canonical(dir);
  const file = join(real, LOCK_FILE);
  const mine = held.get(real);
  if (mine) {
    mine.count++;
    return handle(dir, real);
  }
  const me: DirectoryLockHolder = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    command,
    processStart: processStart('self'),
    token: randomUUID(),
  };
  const draft = `${file}.${me.token}`;
  writeFileSync(draft, `${JSON.stringify(me)}\n`, { mode: 0o644 });
  // Long enough to outwait a takeover guard left by a process killed while holding it.
  const deadline = Date.now() + STALE_TAKEOVER_MS + 2_000;
  try {
    while (Date.now() < deadline) {
      try {
        linkSync(draft, file);
        held.set(real, { token: me.token, count: 1, file });
        heldTokens.add(me.token);
        if (!exitHook) {
          exitHook = true;
          // A process that ends without releasing (an uncaught error) still leaves its directories free.
          process.once('exit', () => {
            for (const entry of held.values()) removeIfOurs(entry.file, entry.token);
          });
        }
        return handle(dir, real);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readHolder(file);
      if (holder === 'absent') continue;
      if (holder !== null && alive(holder)) throw new DirectoryLockedError(dir, holder);
      takeOver(file, holder);
    }
    throw new Error(
      `could not take the lock ${file}: it kept changing hands for ${(STALE_TAKEOVER_MS + 2_000) / 1000} s; ` +
        `if no other explorer is starting on this directory, delete ${file}.takeover`,
    );
  } finally {
    try {
      unlinkSync(draft);
    } catch {
      // Already gone.
    }
  }
}

/** Removes a dead holder's lock file, unless another process took it over meanwhile. */
function takeOver(file: string, dead: DirectoryLockHolder | null): void {
  const guard = `${file}.takeover`;
  try {
    mkdirSync(guard);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another process is taking over; if it died doing so, clear its guard after a while. Renaming it to a
    // name of our own first means only one of several waiting processes clears it.
    try {
      if (Date.now() - statSync(guard).mtimeMs > STALE_TAKEOVER_MS) {
        const cleared = `${guard}.${randomUUID()}`;
        renameSync(guard, cleared);
        rmdirSync(cleared);
      }
    } catch {
      // Gone already, or cleared by another process.
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    return;
  }
  try {
    const now = readHolder(file);
    const same = now === null ? dead === null : now !== 'absent' && now.token === dead?.token;
    if (same) unlinkSync(file);
  } finally {
    try {
      rmdirSync(guard);
    } catch {
      // Cleared as stale by a process that waited too long for it.
    }
  }
}

function handle(dir: string, real: string): DirectoryLock {
  let released = false;
  return {
    dir,
    release() {
      if (released) return;
      released = true;
      const entry = held.get(real);
      if (!entry || --entry.count > 0) return;
      held.delete(real);
      heldTokens.delete(entry.token);
      removeIfOurs(entry.file, entry.token);
    },
  };
}

function removeIfOurs(file: string, token: string): void {
  const now = readHolder(file);
  if (now === null || now === 'absent' || now.token !== token) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
