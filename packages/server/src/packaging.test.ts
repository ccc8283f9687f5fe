import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import {
  freePorts,
  getJson,
  listen,
  TEST_SERVER_SETTINGS,
  type TestServer,
  waitFor,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcess, stopProcess } from './test-support/processes.js';

// The packages install from their packed tarballs with npm alone, as a user without pnpm or a registry copy of
// ours would: `npm run tarballs` packs them, then every install command the documentation shows runs as
// written, in a scratch project of its own, with npm's cache empty and the `@explorer` scope pointed at a
// registry that answers nothing and must not even be asked (nobody holds our scope on the public registry
// yet, so a name npm looked up there could be anyone's). Global installs go to a scratch prefix. What was
// installed is then used for real: the bins, the server, the CLI against it, the SDK's types, core's
// handlers. Third-party dependencies come from the public registry; without it the tests skip, saying why.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const TSC = join(root, 'node_modules/typescript/bin/tsc');
/**
 * The blocks of the one demo the installed explorer-server serves (the CLI, then every snippet, asks it): enough
 * for the demo wallet's addresses to be paid; it goes on mining a block a second for the event examples.
 */
const BLOCKS = 130;
/** Packing and installing wait on the network and on a machine shared with other work: no tight bound. */
const SETUP_MS = 15 * 60_000;

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

const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
const workspace = readdirSync(join(root, 'packages')).map((dir) => ({
  dir,
  ...readManifest(join(root, 'packages', dir)),
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

/** Install commands run together in one project (a fenced block's, or one inline code span), and where shown. */
interface InstallSession {
  files: string[];
  commands: string[];
}

/** Where the documentation shows commands. */
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`),
  ...['examples', 'packages'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((d) => `${group}/${d}/README.md`)
      .filter((f) => existsSync(join(root, f))),
  ),
].filter((f) => f.endsWith('.md'));

const INSTALL = /^npm (?:install|i)\b/;
/** The install commands of the documentation, by session; and the registry installs it says do not work. */
function documentedInstalls() {
  const sessions: InstallSession[] = [];
  // The same commands shown in several places run once.
  const add = (file: string, commands: string[]) => {
    const same = sessions.find((s) => s.commands.join('\n') === commands.join('\n'));
    if (same) same.files.push(file);
    else sessions.push({ files: [file], commands });
  };
  const unworkable: string[] = [];
  const packCommands: string[] = [];
  for (const file of documents) {
    const text = readFileSync(join(root, file), 'utf8');
    const prose = text.replace(/^```[^\n]*\n([\s\S]*?)^```/gm, (_, block: string) => {
      const lines = block.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim());
      packCommands.push(...lines.filter((l) => /^(?:npx|pnpm|npm)\b.*\bpack\b/.test(l)));
      const commands = lines.filter((l) => INSTALL.test(l));
      if (commands.length > 0) add(file, commands);
      return '';
    });
    for (const m of prose.matchAll(/`([^`\n]+)`([^.\n]*)/g)) {
      if (!INSTALL.test(m[1]!)) continue;
      // `npm install @explorer/cli` and the like: said not to work until the packages are published.
      if (!m[1]!.includes('.tgz') && /^\s*(?:and the like\s*)?do(?:es)? not work/.test(m[2]!))
        unworkable.push(`${file}: ${m[1]}`);
      else add(file, [m[1]!]);
    }
  }
  return { sessions, unworkable, packCommands };
}
const documented = documentedInstalls();

/** Why npm could not install, when the reason is the network rather than the packages. */
function networkReason(stderr: string): string | null {
  const m = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b.*/.exec(
    stderr,
  );
  return m ? m[0].slice(0, 200) : null;
}

// Every TypeScript snippet of the documentation (README, docs/, the packages' READMEs), as a reader would use
// it: compiled with `tsc --strict` in a project of its own that installed every tarball (and @types/node, as
// a TypeScript user has), then run against a live demo server. A document's blocks form one program, in
// order, as a reader reads them (later blocks use what earlier ones declared). The example addresses the docs
// write (`https://explorer.example`, `http://127.0.0.1:3000`) stand for that server. A block fenced
// `ts excerpt` shows the repository's own source, not code for an app, and is left out.
const SNIPPET_DOCUMENTS = documents.filter((f) => !f.startsWith('examples/'));
const EXAMPLE_URLS = ['https://explorer.example', 'http://127.0.0.1:3000'];

/** The TypeScript programs of the documentation, one per document that has any. */
function documentedPrograms(): { file: string; name: string; code: string; blocks: number }[] {
  const out: { file: string; name: string; code: string; blocks: number }[] = [];
  for (const file of SNIPPET_DOCUMENTS) {
    const text = readFileSync(join(root, file), 'utf8');
    const blocks = [...text.matchAll(/^```(ts|typescript)( [^\n]*)?\n([\s\S]*?)^```/gm)]
      .filter((m) => !(m[2] ?? '').includes('excerpt'))
      .map((m) => m[3]!);
    if (blocks.length === 0) continue;
    out.push({
      file,
      name: file.replace(/\.md$/, '').replaceAll('/', '-'),
      code: blocks.join('\n'),
      blocks: blocks.length,
    });
  }
  return out;
}

describe('the packed packages, installed with npm alone as the documentation says', () => {
  const work = mkdtempSync(join(tmpdir(), 'explorer-packaging-'));
  const tarballs = join(work, 'tarballs');
  const dataDir = join(work, 'data');
  // Nothing of the caller's explorer settings may leak into the installed programs.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) =>
        !/^(EXPLORER_|DATABASE_|NODE_RPC_|PORT$|HOST$|DEVNET_|RATE_LIMIT_|REDIS_|LOG_LEVEL$|METRICS_|npm_)/i.test(
          k,
        ),
    ),
  );
  /** What the `@explorer` scope's registry was asked: must stay empty. */
  const scopeRequests: string[] = [];
  let scopeRegistry: TestServer | undefined;
  let npmEnv: NodeJS.ProcessEnv = {};
  let skip: string | null = null;
  let server: ChildProcess | undefined;
  /** The running demo's address, once the installed explorer-server serves it. */
  let serverUrl = '';
  /** Each session's scratch project and global prefix, once its commands have run. */
  const installed = new Map<InstallSession, { project: string; prefix: string }>();

  beforeAll(async () => {
    // One pack for every test, by the documented command's script (it builds what is stale first).
    await run(process.execPath, [join(root, 'scripts/pack.mjs'), tarballs], { cwd: root });
    scopeRegistry = await listen((req, res) => {
      scopeRequests.push(`${req.method} ${req.url}`);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"Not found"}');
    });
    npmEnv = {
      ...env,
      npm_config_cache: join(work, 'npm-cache'),
      'npm_config_@explorer:registry': `${scopeRegistry.url}/`,
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
  }, SETUP_MS);

  afterAll(async () => {
    await stopProcess(server);
    await scopeRegistry?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('packs exactly the published packages, none of the test packages', () => {
    expect(testPackages.sort()).toEqual([
      '@explorer/chain-fixture',
      '@explorer/test-vectors',
      '@explorer/testing',
    ]);
    expect(readdirSync(tarballs).sort()).toEqual(packages.map((p) => tarball(p.name)).sort());
  });

  it('packs what each manifest promises, with workspace: specs turned into the version', async () => {
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
        if (dep.startsWith('@explorer/')) expect(spec, `${p.name} → ${dep}`).toBe(version);
      }
      for (const target of Object.values(m.bin ?? {})) {
        const { stdout: head } = await run('tar', ['-xzOf', file, `package/${target.slice(2)}`]);
        expect(head.startsWith('#!/usr/bin/env node'), `${p.name} ${target}`).toBe(true);
      }
    }
  });

  it('shows one way to pack, npm run tarballs, and calls only registry installs unworkable', () => {
    expect(documented.packCommands).toEqual([]);
    expect(readFileSync(join(root, 'docs/getting-started.md'), 'utf8')).toContain('npm run tarballs');
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.tarballs).toBe(
      'node scripts/pack.mjs',
    );
    for (const line of documented.unworkable) expect(line).toMatch(/npm install (?:-g )?@explorer\//);
    // Every guide that installs tarballs is among the sessions below.
    expect(new Set(documented.sessions.flatMap((s) => s.files))).toEqual(
      new Set([
        'docs/getting-started.md',
        'docs/client.md',
        'docs/cli.md',
        'docs/events.md',
        'examples/standalone/README.md',
        'packages/cli/README.md',
        'packages/client/README.md',
        'packages/core/README.md',
        'packages/server/README.md',
      ]),
    );
  });

  /** The installed `@explorer` packages of a project and a global prefix: their folders. */
  const installedPackages = (project: string, prefix: string) =>
    [join(project, 'node_modules/@explorer'), join(prefix, 'lib/node_modules/@explorer')]
      .filter((d) => existsSync(d))
      .flatMap((d) => readdirSync(d).map((name) => join(d, name)));

  const named = documented.sessions.map((session) => ({
    session,
    name: `${session.files.join(', ')}: ${session.commands.join(' && ')}`,
  }));
  it.for(named)('$name', { timeout: SETUP_MS }, async ({ session }, ctx) => {
    if (skip) return ctx.skip(skip);
    const project = join(work, 'sessions', String(documented.sessions.indexOf(session)));
    const prefix = join(project, 'global');
    mkdirSync(prefix, { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true, type: 'module', version: '0.0.0' }),
    );
    // `./tarballs/…` is typed where the tarballs were packed; `/path/to/tarballs/…` stands for wherever.
    symlinkSync(tarballs, join(project, 'tarballs'));
    for (const command of session.commands) {
      try {
        await run('sh', ['-c', command.replaceAll('/path/to/tarballs', tarballs)], {
          cwd: project,
          env: { ...npmEnv, npm_config_prefix: prefix },
          maxBuffer: 10_000_000,
        });
      } catch (err) {
        const stderr = String((err as { stderr?: string }).stderr ?? err);
        const reason = networkReason(stderr);
        if (!reason) throw new Error(`\`${command}\` failed:\n${stderr}`);
        skip = `the npm registry is unreachable (${reason})`;
        return ctx.skip(skip);
      }
      expect(scopeRequests, `\`${command}\` asked a registry for the @explorer scope`).toEqual([]);
      // Whatever it installed loads, and each of its commands runs.
      const dirs = installedPackages(project, prefix);
      const entries = dirs.map((d) => pathToFileURL(join(d, readManifest(d).main ?? 'index.js')).href);
      await run(
        process.execPath,
        ['--input-type=module', '-e', `for (const u of ${JSON.stringify(entries)}) await import(u);`],
        { cwd: project, env },
      );
      for (const name of dirs.flatMap((d) => Object.keys(readManifest(d).bin ?? {}))) {
        const bin = [join(prefix, 'bin', name), join(project, 'node_modules/.bin', name)].find(existsSync);
        expect(bin, `${command}: ${name}`).toBeDefined();
        await run(bin!, ['--help'], { env });
      }
    }
    installed.set(session, { project, prefix });
  });

  /** The first session that installed these packages, globally or into its project. */
  function sessionWith(names: string[], where: 'global' | 'project') {
    for (const dirs of installed.values()) {
      const base =
        where === 'global' ? join(dirs.prefix, 'lib/node_modules') : join(dirs.project, 'node_modules');
      if (names.every((n) => existsSync(join(base, n)))) return dirs;
    }
    throw new Error(`no documented install puts ${names.join(', ')} into a ${where} location`);
  }

  it('runs the installed explorer-server, and the installed explorer lists 50 blocks from it', {
    timeout: SETUP_MS,
  }, async (ctx) => {
    if (skip) return ctx.skip(skip);
    const { prefix } = sessionWith(['@explorer/server', '@explorer/cli'], 'global');
    const bin = (name: string) => join(prefix, 'bin', name);
    const [serverVersion, cliVersion] = await Promise.all([
      run(bin('explorer-server'), ['--version'], { env }),
      run(bin('explorer'), ['--version'], { env }),
    ]);
    expect(serverVersion.stdout.trim()).toBe(version);
    expect(cliVersion.stdout.trim()).toBe(version);
    const started = await startProcess(
      ['start', '--port', '0', '--data-dir', dataDir],
      {
        ...env,
        ...TEST_SERVER_SETTINGS,
        DEVNET_BLOCKS: String(BLOCKS),
        DEVNET_INTERVAL_MS: '1000',
        LOG_LEVEL: 'warn',
        METRICS_PORT: '0',
      },
      /listening on (http:\/\/\S+)/,
      { command: bin('explorer-server'), cwd: work, replaceEnv: true },
    );
    server = started.proc;
    const url = started.match[1]!;
    for (;;) {
      const body = await (await fetch(`${url}/v1/status`)).json();
      if (body.meta?.indexedTip >= BLOCKS && body.status?.indexer?.state === 'synced') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await (await fetch(`${url}/`)).json()).version).toBe(version);
    // Swagger UI's files come from the installed swagger-ui-dist.
    expect((await fetch(`${url}/docs/assets/swagger-ui.css`)).status).toBe(200);

    const { stdout } = await run(bin('explorer'), ['blocks', '--limit', '50', '--json', '--base-url', url], {
      env,
    });
    // The newest 50, whatever block the demo mined last.
    const heights = (JSON.parse(stdout).blocks as { height: number }[]).map((b) => b.height);
    expect(heights[0]).toBeGreaterThanOrEqual(BLOCKS);
    expect(heights).toEqual(Array.from({ length: 50 }, (_, i) => heights[0]! - i));
    const table = await run(bin('explorer'), ['blocks', '--limit', '50', '--table', '--base-url', url], {
      env,
    });
    expect(table.stdout.trim().split('\n')).toHaveLength(51);
    // It keeps serving: the documentation's programs run against it below.
    serverUrl = url;
  });

  it('type-checks code using @explorer/client against the installed types, and refuses a type error', {
    timeout: SETUP_MS,
  }, async (ctx) => {
    if (skip) return ctx.skip(skip);
    const { project } = sessionWith(['@explorer/client', '@explorer/core'], 'project');
    writeFileSync(
      join(project, 'good.ts'),
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
      join(project, 'bad.ts'),
      `import { createExplorerClient } from '@explorer/client';

const client = createExplorerClient({ baseUrl: 'http://127.0.0.1:3000' });
const page = await client.blocks.list({ limit: 5 });
export const height: string = page.blocks[0]!.height;
`,
    );
    // One run over both files (and, without skipLibCheck, over the installed declarations they reach): the
    // one error must be bad.ts's, which proves the types are real rather than any.
    const args = [
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2023,dom',
    ];
    const errors = await run(process.execPath, [TSC, ...args, 'good.ts', 'bad.ts'], { cwd: project }).then(
      () => '',
      (e: { stdout: string }) => e.stdout,
    );
    expect(errors.trim().split('\n')).toEqual([
      "bad.ts(5,14): error TS2322: Type 'number' is not assignable to type 'string'.",
    ]);
  });

  const programs = documentedPrograms();
  let project = '';
  let skipped: string | null = null;

  it('finds the snippets: the SDK guide’s, the embedding guides’, the wallet, devnet and webhook guides’', () => {
    expect(programs.map((p) => p.file).sort()).toEqual(
      [
        'docs/client.md',
        'docs/devnet.md',
        'docs/getting-started.md',
        'docs/wallets.md',
        'docs/webhooks.md',
        'packages/client/README.md',
        'packages/core/README.md',
      ].sort(),
    );
  });

  it('compiles every program with --strict', { timeout: SETUP_MS }, async (ctx) => {
    if (skip) return ctx.skip(skip);
    project = join(work, 'snippets');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'snippets', private: true, type: 'module', version: '0.0.0' }),
    );
    const all = readdirSync(tarballs).map((t) => join(tarballs, t));
    try {
      await run('npm', ['install', ...all, '@types/node@^20.19.0'], {
        cwd: project,
        env: { ...npmEnv, npm_config_prefix: join(project, 'global') },
        maxBuffer: 10_000_000,
      });
    } catch (err) {
      const stderr = String((err as { stderr?: string }).stderr ?? err);
      const reason = networkReason(stderr);
      if (!reason) throw new Error(`npm install failed:\n${stderr}`);
      skipped = `the npm registry is unreachable (${reason})`;
      return ctx.skip(skipped);
    }
    for (const p of programs) writeFileSync(join(project, 'src', `${p.name}.ts`), p.code);
    const args = [
      '--strict',
      '--module',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2023,dom',
      '--types',
      'node',
      '--outDir',
      'out',
      ...programs.map((p) => `src/${p.name}.ts`),
    ];
    const errors = await run(process.execPath, [TSC, ...args], { cwd: project }).then(
      () => '',
      (e: { stdout: string }) => e.stdout,
    );
    expect(errors).toBe('');
  });

  it('runs every program against the installed explorer-server’s live demo', {
    timeout: SETUP_MS,
  }, async (ctx) => {
    if (skip ?? skipped) return ctx.skip((skip ?? skipped)!);
    expect(existsSync(join(project, 'out'))).toBe(true);
    expect(serverUrl).not.toBe('');
    const url = serverUrl;
    // The compiled programs, each pointed at the server.
    for (const p of programs) {
      const file = join(project, 'out', `${p.name}.js`);
      let code = readFileSync(file, 'utf8');
      for (const example of EXAMPLE_URLS) code = code.replaceAll(example, url);
      writeFileSync(file, code);
    }
    const failures: string[] = [];
    for (const p of programs) {
      const file = join(project, 'out', `${p.name}.js`);
      if (p.file === 'docs/webhooks.md') {
        failures.push(...(await exerciseReceiver(file)));
        continue;
      }
      const result = await run(process.execPath, [file], { cwd: project, env, maxBuffer: 10_000_000 }).then(
        () => null,
        (e: { code?: number; stderr?: string }) => `${p.file}: exit ${e.code}\n${e.stderr}`,
      );
      if (result) failures.push(result);
    }
    expect(failures).toEqual([]);
  });

  it('embeds @explorer/core’s handlers in a plain node:http server over the installed @explorer/db', {
    timeout: SETUP_MS,
  }, async (ctx) => {
    if (skip) return ctx.skip(skip);
    // The database the installed server indexed, once it stopped (the embedded database belongs to one process).
    const { body: last } = await getJson(`${serverUrl}/v1/status`);
    expect(await stopProcess(server)).toBe(0);
    const { project } = sessionWith(['@explorer/core', '@explorer/db'], 'project');
    writeFileSync(
      join(project, 'embed.mjs'),
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
        cwd: project,
        replaceEnv: true,
      },
    );
    try {
      const res = await fetch(`${match[1]}/v1/blocks?limit=3`);
      expect(res.status).toBe(200);
      const body = await res.json();
      // What the server had indexed when it stopped, or a block it indexed on its way out.
      const tip = body.meta.indexedTip;
      expect(tip).toBeGreaterThanOrEqual(last.meta.indexedTip);
      expect(body.blocks.map((b: { height: number }) => b.height)).toEqual([tip, tip - 1, tip - 2]);
    } finally {
      await stopProcess(child);
    }
  });

  /** The webhook guide's receiver, started: a signed delivery gets 204, a forged one 400. */
  async function exerciseReceiver(file: string): Promise<string[]> {
    const secret = 'whsec_snippet_test';
    const [port] = await freePorts(1);
    const child = spawn(process.execPath, [file], {
      cwd: project,
      env: { ...env, PORT: String(port), EXPLORER_WEBHOOK_SECRET: secret },
      stdio: 'ignore',
    });
    const problems: string[] = [];
    try {
      const body = JSON.stringify({ id: '1', type: 'block', at: new Date().toISOString(), data: {} });
      const t = Math.floor(Date.now() / 1000);
      const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
      const post = (signature: string) =>
        fetch(`http://127.0.0.1:${port}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'explorer-signature': signature },
          body,
        }).then((r) => r.status);
      const signed = await waitFor('the receiver to listen', () => post(`t=${t},v1=${v1}`));
      if (signed !== 204) problems.push(`docs/webhooks.md: a signed delivery got ${signed}`);
      const forged = await post(`t=${t},v1=${'0'.repeat(64)}`);
      if (forged !== 400) problems.push(`docs/webhooks.md: a forged delivery got ${forged}`);
    } finally {
      await stopProcess(child);
    }
    return problems;
  }
});
