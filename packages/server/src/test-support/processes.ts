import { type ChildProcess, spawn } from 'node:child_process';
import { createPgSql } from '@explorer/db';

/** A started child process, its first stdout match, and everything it printed so far. */
export interface Started {
  proc: ChildProcess;
  match: RegExpExecArray;
  output(): string;
}

/**
 * Starts `node <args>` and resolves with the first stdout match of `pattern`; rejects with the tail of stderr
 * if the process exits first.
 * @example const { match } = await startProcess([serverBin, 'start', '--port', '0'], env, /listening on (\S+)/)
 */
export function startProcess(args: string[], env: Record<string, string>, pattern: RegExp): Promise<Started> {
  const proc = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
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
    proc.on('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${err.slice(-500)}`)));
  });
}

/**
 * A PostgreSQL database of its own next to `baseUrl`'s, so a server process runs exactly as deployed; drop()
 * removes it, connections and all.
 * @example const db = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'load'); db.url; await db.drop()
 */
export async function scratchDatabase(
  baseUrl: string,
  purpose: string,
): Promise<{ url: string; name: string; admin: ReturnType<typeof createPgSql>; drop(): Promise<void> }> {
  const name = `explorer_${purpose}_${process.pid}`;
  const admin = createPgSql({ connectionString: baseUrl, max: 2 });
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    admin,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
