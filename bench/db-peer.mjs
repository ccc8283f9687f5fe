// The database's own ceiling for an endpoint: the SQL one request of it runs, replayed by pgbench with the same
// named (prepared) statements and parameters, at the same concurrency. Beside the HTTP figure it shows how much
// of an endpoint's cost is PostgreSQL's and how much is the API's.
//
// The statements are those of an uncached request: an in-process API over the same database (response cache
// off, as in a rendered run, and no memo filled yet) answers the path once; the tip read, which the server keeps
// between requests, is left out. How many statements a steady-state request still runs (a second one, with the
// memos filled) is reported beside: zero means the endpoint is answered from the per-tip memos.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExplorerApi, esploraRoutes, v1Routes } from '../packages/core/dist/index.js';
import { createPgSql, createSqlStore } from '../packages/db/dist/index.js';

// Parameters become text exactly as node-postgres sends them (arrays, bytes, bigints, dates).
const { prepareValue } = createRequire(new URL('../packages/db/package.json', import.meta.url))(
  'pg/lib/utils.js',
);

/** Why pgbench cannot run here, or null. */
export function pgbenchSkipReason() {
  return spawnSync('pgbench', ['--version']).status === 0 ? null : 'pgbench is not installed';
}

/** The reads of the indexed tip, which the server shares between requests. */
const TIP_READS = new Set(['state.read', 'state.tip']);

/**
 * The statements (text, parameters) an uncached request of each path runs, in order, and how many a
 * steady-state one still runs.
 * @example const byPath = await captureStatements(url, ['/v1/blocks/10'])
 */
export async function captureStatements(databaseUrl, paths) {
  const sql = createPgSql({ connectionString: databaseUrl, max: 2 });
  let seen = null;
  const recording = (inner) => ({
    ...inner,
    query(text, params = [], name) {
      seen?.push({ text, params, name });
      return inner.query(text, params, name);
    },
    transaction: (fn) => inner.transaction((tx) => fn(recording(tx))),
  });
  const apiOver = () =>
    createExplorerApi({
      store: createSqlStore(recording(sql)),
      routes: v1Routes,
      node: null,
      config: { publicBaseUrl: 'http://127.0.0.1', responseCacheBytes: 0 },
    });
  const ask = async (api, path) => {
    seen = [];
    const res = await api.handle(new Request(`http://127.0.0.1${path}`));
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status} in process`);
    const statements = seen;
    seen = null;
    return statements;
  };
  const byPath = new Map();
  try {
    for (const path of paths) {
      const api = apiOver();
      await ask(api, '/v1/status'); // reads the tip, as the server has when a request arrives
      const statements = (await ask(api, path)).filter((s) => !TIP_READS.has(s.name));
      byPath.set(path, { statements, steadyStatements: (await ask(api, path)).length });
    }
  } finally {
    await sql.close();
  }
  return byPath;
}

/**
 * Whether PostgreSQL keeps a plan for each statement the paths of a class run: an in-process API over one
 * connection (so every statement is prepared on it, as on each connection of the server's pool) answers every
 * path once, in order (distinct paths: no in-process cache answers); then, per query name, the connection's
 * pg_prepared_statements says how many executions ran a generic (kept) plan and how many a custom one (planned
 * for that call), and one more execution, under EXPLAIN ANALYZE, splits its time into planning and execution.
 * @example await planReport(url, ['/v1/txs/ab…', '/v1/txs/cd…'])
 * @returns {Promise<Record<string, { generic: number, custom: number, planningMs: number, executionMs: number }>>}
 */
export async function planReport(databaseUrl, paths) {
  const sql = createPgSql({ connectionString: databaseUrl, max: 1 });
  const last = new Map();
  const recording = {
    ...sql,
    query(text, params = [], name) {
      if (name && !TIP_READS.has(name)) last.set(name, { text, params });
      return sql.query(text, params, name);
    },
  };
  const api = createExplorerApi({
    store: createSqlStore(recording),
    routes: v1Routes,
    adapters: esploraRoutes(),
    node: null,
    config: { publicBaseUrl: 'http://127.0.0.1', responseCacheBytes: 0 },
  });
  try {
    for (const path of paths) {
      const res = await api.handle(new Request(`http://127.0.0.1${path}`));
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status} in process`);
    }
    const prepared = await sql.query(
      'SELECT name, statement, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements',
    );
    const report = {};
    for (const [name, { text, params }] of last) {
      const p = prepared.find((r) => r.statement === text);
      if (!p) continue;
      // EXECUTE takes its parameters as literals (a utility statement has no parameters of its own).
      const literals = params.map((v) => {
        const value = prepareValue(v);
        if (value === null || value === undefined) return 'NULL';
        const text = Buffer.isBuffer(value) ? `\\x${value.toString('hex')}` : String(value);
        return `'${text.replaceAll("'", "''")}'`;
      });
      const [{ 'QUERY PLAN': plan }] = await sql.query(
        `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE "${p.name}"${literals.length ? `(${literals.join(', ')})` : ''}`,
      );
      const [top] = typeof plan === 'string' ? JSON.parse(plan) : plan;
      report[name] = {
        generic: p.generic,
        custom: p.custom,
        planningMs: Math.round(top['Planning Time'] * 1000) / 1000,
        executionMs: Math.round(top['Execution Time'] * 1000) / 1000,
      };
    }
    return report;
  } finally {
    await sql.close();
  }
}

/**
 * A pgbench script running `statements` once per transaction, and its -D definitions: each parameter a
 * variable (sent as a parameter of the prepared statement), NULL written in place.
 */
export function pgbenchScript(statements) {
  const defines = [];
  const lines = statements.map((s, i) => {
    const text = s.text.replace(/\$(\d+)/g, (_, n) => {
      const value = prepareValue(s.params[Number(n) - 1]);
      if (value === null || value === undefined) return 'NULL';
      const name = `s${i}p${n}`;
      defines.push(`${name}=${Buffer.isBuffer(value) ? `\\x${value.toString('hex')}` : value}`);
      return `:${name}`;
    });
    return `${text.trim().replace(/;\s*$/, '')};`;
  });
  return { script: `${lines.join('\n')}\n`, defines };
}

/**
 * Runs pgbench with the statements for `seconds` at `connections` clients, prepared statements on.
 * @returns {{ tps: number, latencyMs: number, statements: number }}
 */
export function pgbench(databaseUrl, statements, { connections = 32, seconds = 5 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'explorer-pgbench-'));
  try {
    const { script, defines } = pgbenchScript(statements);
    const file = join(dir, 'request.sql');
    writeFileSync(file, script);
    const args = ['-n', '-M', 'prepared', '-c', String(connections), '-j', '2', '-T', String(seconds)];
    for (const d of defines) args.push('-D', d);
    const r = spawnSync('pgbench', [...args, '-f', file, databaseUrl], { encoding: 'utf8' });
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(r.stdout);
    const latency = /latency average = ([\d.]+) ms/.exec(r.stdout);
    if (r.status !== 0 || !tps || !latency)
      throw new Error(`pgbench failed (${r.status}): ${(r.stderr || r.stdout).slice(-800)}\n${script}`);
    return {
      tps: Math.round(Number(tps[1])),
      latencyMs: Number(latency[1]),
      statements: statements.length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
