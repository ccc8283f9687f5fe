import { type ChildProcess, execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcess, stopProcess } from './test-support/processes.js';

// Every package installs from its packed tarball with npm alone, as a user without pnpm or a registry copy of
// ours would: `pnpm pack` (which rewrites workspace: specs to the version), then `npm install` of the tarballs
// in a scratch project, then the installed bins, types and handlers are used for real. Needs the npm registry
// for third-party dependencies; without it the tests skip, saying why.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const TSC = join(root, 'node_modules/typescript/bin/tsc');
const BLOCKS = 60;

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: unknown;
  files?: string[];
  engines?: { node?: string };
  license?: string;
  publishConfig?: { access?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const workspace = readdirSync(join(root, 'packages')).map((dir) => ({
  dir,
  ...(JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest),
}));
const packages = workspace.filter((p) => !p.private);
/** The workspace's test packages: never published, never a runtime dependency. */
const testPackages = workspace.filter((p) => p.private).map((p) => p.name);
const version = packages[0]!.version;
const tarball = (name: string) => `${name.replace('@', '').replace('/', '-')}-${version}.tgz`;

/** The files a manifest promises: main, types, bins and every export target. */
function promised(m: Manifest): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.startsWith('./dist/')) out.add(v.slice(2));
    } else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk([m.main, m.types, m.bin, m.exports]);
  return [...out];
}

/** Why npm could not install, when the reason is the network rather than the packages. */
function networkReason(stderr: string): string | null {
  const m = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b.*/.exec(
    stderr,
  );
  return m ? m[0].slice(0, 200) : null;
}

const timings: Record<string, number> = {};
async function timed<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await fn();
  } finally {
    timings[what] = Date.now() - started;
  }
}

describe('the packed packages, installed with npm alone', () => {
  const work = mkdtempSync(join(tmpdir(), 'explorer-packaging-'));
  const tarballs = join(work, 'tarballs');
  const app = join(work, 'app');
  const dataDir = join(work, 'data');
  const bin = (name: string) => join(app, 'node_modules/.bin', name);
  // Nothing of the caller's explorer settings may leak into the installed programs.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(EXPLORER_|DATABASE_|NODE_RPC_|PORT$|HOST$|DEVNET_|RATE_LIMIT_|REDIS_|LOG_LEVEL$)/.test(k),
    ),
  );
  let skip: string | null = null;
  let server: ChildProcess | undefined;
  let url = '';

  /** Packs every package; those whose tarball lacks a promised file are built (declarations too) and packed again. */
  async function pack(names: string[]): Promise<string[]> {
    const filters = names.flatMap((dir) => ['--filter', `./packages/${dir}`]);
    // The build is checked just above and after; packing runs no script (prepack would rebuild every package).
    await run('pnpm', [...filters, '--config.ignore-scripts=true', 'pack', '--pack-destination', tarballs], {
      cwd: root,
    });
    const incomplete: string[] = [];
    for (const p of packages.filter((q) => names.includes(q.dir))) {
      const { stdout } = await run('tar', ['-tzf', join(tarballs, tarball(p.name))]);
      const files = new Set(stdout.split('\n').map((f) => f.replace(/^package\//, '')));
      if (!promised(p).every((f) => files.has(f))) incomplete.push(p.dir);
    }
    return incomplete;
  }

  beforeAll(async () => {
    mkdirSync(tarballs);
    mkdirSync(app);
    const all = packages.map((p) => p.dir);
    await timed('build', () => run(process.execPath, [join(root, 'scripts/build-stale.mjs')], { cwd: root }));
    // Another run in this checkout (npm start builds without declarations) may rebuild a dist meanwhile.
    const incomplete = await timed('pack', () => pack(all));
    if (incomplete.length > 0) {
      await run(process.execPath, [join(root, 'scripts/build-stale.mjs'), ...incomplete], { cwd: root });
      await pack(incomplete);
    }
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true, type: 'module', version: '0.0.0' }),
    );
    try {
      await timed('npm install', () =>
        run(
          'npm',
          [
            'install',
            '--no-audit',
            '--no-fund',
            '--prefer-offline',
            ...packages.map((p) => join(tarballs, tarball(p.name))),
          ],
          { cwd: app, env, maxBuffer: 10_000_000 },
        ),
      );
    } catch (err) {
      const stderr = String((err as { stderr?: string }).stderr ?? err);
      const reason = networkReason(stderr);
      if (!reason) throw new Error(`npm install of the tarballs failed:\n${stderr}`);
      skip = `the npm registry is unreachable (${reason})`;
      console.warn(`packaging.test: skipped, ${skip}`);
    }
  }, 300_000);

  afterAll(async () => {
    await stopProcess(server);
    rmSync(work, { recursive: true, force: true });
    console.info(`packaging.test timings (ms): ${JSON.stringify(timings)}`);
  });

  it('packs what each manifest promises, with workspace: specs turned into the version', async () => {
    expect(testPackages.sort()).toEqual([
      '@explorer/chain-fixture',
      '@explorer/test-vectors',
      '@explorer/testing',
    ]);
    for (const p of packages) {
      const file = join(tarballs, tarball(p.name));
      const { stdout: list } = await run('tar', ['-tzf', file]);
      const files = list.split('\n').map((f) => f.replace(/^package\//, ''));
      expect(files, p.name).toEqual(expect.arrayContaining(['package.json', 'LICENSE', ...promised(p)]));
      // No test code: neither tests nor their fixtures.
      expect(
        files.filter((f) => f.endsWith('.test.ts') || f.includes('/test-support/') || f.includes('fixture')),
        p.name,
      ).toEqual([]);
      const { stdout } = await run('tar', ['-xzOf', file, 'package/package.json']);
      const m = JSON.parse(stdout) as Manifest;
      expect(m, p.name).toMatchObject({
        version,
        license: 'MIT',
        engines: { node: expect.any(String) },
        publishConfig: { access: 'public' },
        files: expect.arrayContaining(['dist']),
      });
      expect(stdout, p.name).not.toContain('workspace:');
      for (const [dep, spec] of Object.entries({ ...m.dependencies, ...m.peerDependencies })) {
        expect(testPackages, `${p.name} → ${dep}`).not.toContain(dep);
        if (dep.startsWith('@explorer/'))
          expect(spec, `${p.name} → ${dep}`).toMatch(new RegExp(`^\\^?${version}$`));
      }
      for (const target of Object.values(m.bin ?? {})) {
        const { stdout: head } = await run('tar', ['-xzOf', file, `package/${target.slice(2)}`]);
        expect(head.startsWith('#!/usr/bin/env node'), `${p.name} ${target}`).toBe(true);
      }
    }
  });

  it('runs the installed explorer-server, and the installed explorer lists 50 blocks from it', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const [serverVersion, cliVersion] = await Promise.all([
      run(bin('explorer-server'), ['--version'], { env }),
      run(bin('explorer'), ['--version'], { env }),
    ]);
    expect(serverVersion.stdout.trim()).toBe(version);
    expect(cliVersion.stdout.trim()).toBe(version);

    const started = await timed('server start', () =>
      startProcess(
        ['start', '--port', '0', '--data-dir', dataDir],
        { ...env, DEVNET_BLOCKS: String(BLOCKS), DEVNET_INTERVAL_MS: '0', LOG_LEVEL: 'warn' },
        /listening on (http:\/\/\S+)/,
        { command: bin('explorer-server'), cwd: app, replaceEnv: true },
      ),
    );
    server = started.proc;
    url = started.match[1]!;
    await timed('index', async () => {
      for (const end = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
        const body = await (await fetch(`${url}/v1/status`)).json();
        if (body.meta?.indexedTip === BLOCKS && body.status?.indexer?.state === 'synced') return;
        if (Date.now() > end) throw new Error(`the installed server did not index ${BLOCKS} blocks`);
      }
    });
    expect((await (await fetch(`${url}/`)).json()).version).toBe(version);
    // Swagger UI's files come from the installed swagger-ui-dist.
    expect((await fetch(`${url}/docs/assets/swagger-ui.css`)).status).toBe(200);

    const { stdout } = await run(bin('explorer'), ['blocks', '--limit', '50', '--json', '--base-url', url], {
      env,
    });
    const heights = (JSON.parse(stdout).blocks as { height: number }[]).map((b) => b.height);
    expect(heights).toEqual(Array.from({ length: 50 }, (_, i) => BLOCKS - i));
    const table = await run(bin('explorer'), ['blocks', '--limit', '50', '--table', '--base-url', url], {
      env,
    });
    expect(table.stdout.trim().split('\n')).toHaveLength(51);
    expect(await stopProcess(server)).toBe(0);
  });

  it('type-checks code using @explorer/client against the installed types, and refuses a type error', async (ctx) => {
    if (skip) return ctx.skip(skip);
    writeFileSync(
      join(app, 'good.ts'),
      `import { createExplorerClient, ExplorerApiError } from '@explorer/client';

const client = createExplorerClient({ baseUrl: 'http://127.0.0.1:3000' });
const page = await client.blocks.list({ limit: 5 });
export const height: number = page.blocks[0]!.height;
export const next: string | undefined = page.pagination?.nextCursor;
for await (const tx of client.txs.list({ limit: 100 }).all({ max: 10 })) {
  const id: string = tx.txid;
  console.log(id);
}
const { status } = await client.status();
export const healthy: boolean = status.healthy;
try {
  await client.blocks.get(1);
} catch (e) {
  if (e instanceof ExplorerApiError) console.log(e.status satisfies number, e.requestId);
}
`,
    );
    writeFileSync(
      join(app, 'bad.ts'),
      `import { createExplorerClient } from '@explorer/client';

const client = createExplorerClient({ baseUrl: 'http://127.0.0.1:3000' });
const page = await client.blocks.list({ limit: 5 });
export const height: string = page.blocks[0]!.height;
`,
    );
    // One run over both files (and, without skipLibCheck, over the installed declarations they reach): the
    // one error must be bad.ts's, which proves the types are real rather than any.
    const errors = await timed('tsc', () =>
      run(
        process.execPath,
        [
          TSC,
          '--noEmit',
          '--strict',
          '--module',
          'nodenext',
          '--target',
          'es2022',
          '--lib',
          'es2023,dom',
        ].concat(['good.ts', 'bad.ts']),
        { cwd: app },
      ).then(
        () => '',
        (e: { stdout: string }) => e.stdout,
      ),
    );
    expect(errors.trim().split('\n')).toEqual([
      "bad.ts(5,14): error TS2322: Type 'number' is not assignable to type 'string'.",
    ]);
  });

  it('embeds @explorer/core’s handlers in a plain node:http server over the installed @explorer/db', async (ctx) => {
    if (skip) return ctx.skip(skip);
    // The database the installed server indexed (stopped above: the embedded database belongs to one process).
    expect(server?.exitCode).toBe(0);
    writeFileSync(
      join(app, 'embed.mjs'),
      `import { createServer } from 'node:http';
import { createExplorerApi, v1Routes } from '@explorer/core';
import { createSqlStore, openDatabase } from '@explorer/db';

const sql = await openDatabase({ dataDir: process.argv[2] });
const api = createExplorerApi({ store: createSqlStore(sql), routes: v1Routes });
const server = createServer(async (req, res) => {
  const response = await api.handle(new Request(new URL(req.url, 'http://localhost')), {
    clientAddress: req.socket.remoteAddress ?? null,
  });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
`,
    );
    const { proc: child, match } = await startProcess(
      ['embed.mjs', dataDir],
      env,
      /listening on (http:\/\/\S+)/,
      {
        cwd: app,
        replaceEnv: true,
      },
    );
    try {
      const res = await fetch(`${match[1]}/v1/blocks?limit=3`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.blocks.map((b: { height: number }) => b.height)).toEqual([BLOCKS, BLOCKS - 1, BLOCKS - 2]);
      expect(body.meta.indexedTip).toBe(BLOCKS);
    } finally {
      await stopProcess(child);
    }
  });
});
