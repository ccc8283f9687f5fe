// What the benchmarks share: starting a node script and waiting for its first line, a process's RSS and CPU
// seconds (Linux /proc), database URLs on the benchmark's server, and wrk runs.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Starts a node script and resolves with the first match of `pattern` in its stdout (stderr inherited).
 * @returns {Promise<{ proc: import('node:child_process').ChildProcess, match: RegExpExecArray }>}
 */
export function startScript(args, env = {}, pattern = /listening on (http:\/\/\S+)/) {
  const proc = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += d;
      const m = pattern.exec(buf);
      if (m) resolve({ proc, match: m });
    });
    proc.on('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

/** A process's resident set in MiB (0 once it is gone). */
export function rssMiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) a process has used; NaN once it is gone. */
export function procCpu(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds of every PostgreSQL process of the machine together. */
export function postgresCpu() {
  let t = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').startsWith('postgres')) t += procCpu(d) || 0;
    } catch {}
  }
  return t;
}

/** The benchmarks' PostgreSQL server. */
export const BENCH_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the server of `base`. */
export function dbUrl(name, base = BENCH_DATABASE_URL) {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Why wrk cannot run here, or null. */
export function wrkSkipReason() {
  return spawnSync('wrk', ['--version']).error ? 'wrk is not installed (apt-get install wrk)' : null;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s[Math.floor((s.length - 1) / 2)];
};

export { median };
