import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, createExplorerApi, v1Routes } from '@explorer/core';
import {
  type CommandContext,
  createLogger,
  createProgram,
  createServerApp,
  SERVER_VERSION,
} from '@explorer/server';
import { failingStore } from '@explorer/testing';
import { describe, expect, it } from 'vitest';
import { runCli } from './program.js';

// One version everywhere a user looks (docs/decisions.md, "Versions"): every published package, both command
// lines, the front door, /v1/status and the OpenAPI document. The document's version is the API contract's.
// It sits here, at the top of the package graph, because it asks both command lines.
const root = fileURLToPath(new URL('../../../', import.meta.url));
interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const manifests = (parent: string) =>
  readdirSync(join(root, parent))
    .filter((dir) => existsSync(join(root, parent, dir, 'package.json')))
    .map((dir) => ({
      dir,
      ...(JSON.parse(readFileSync(join(root, parent, dir, 'package.json'), 'utf8')) as Manifest),
    }));
const packages = manifests('packages');

/** What `explorer-server --version` prints. */
async function serverVersion(): Promise<string> {
  let out = '';
  const ctx: CommandContext = {
    env: {},
    stdout: () => {},
    stderr: () => {},
    exit: () => {},
    onSignal: () => {},
  };
  const program = createProgram(ctx).exitOverride();
  program.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  await program.parseAsync(['node', 'explorer-server', '--version']).catch((e: { code?: string }) => {
    if (e.code !== 'commander.version') throw e;
  });
  return out.trim();
}

/** What `explorer --version` prints. */
async function cliVersion(): Promise<string> {
  let out = '';
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (out += s) },
    env: {},
    signal: new AbortController().signal,
  };
  expect(await runCli(['--version'], io)).toBe(0);
  return out.trim();
}

describe('one version everywhere', () => {
  const document = buildOpenApiDocument(v1Routes, 'http://127.0.0.1:3000');
  const version = (document.info as { version: string }).version;

  const published = packages.filter((p) => !p.private);

  it('is the API document’s version, and every published package has it', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(published.length).toBeGreaterThanOrEqual(8);
    expect(Object.fromEntries(published.map((p) => [p.name, p.version]))).toEqual(
      Object.fromEntries(published.map((p) => [p.name, version])),
    );
  });

  it('is what both command lines print for --version', async () => {
    expect(await serverVersion()).toBe(version);
    expect(await cliVersion()).toBe(version);
  });

  it('is what / and /v1/status announce', async () => {
    const api = createExplorerApi({ store: failingStore, routes: v1Routes, node: null });
    const app = createServerApp({ api, log: createLogger({ level: 'silent' }) });
    expect(SERVER_VERSION).toBe(version);
    expect((await (await app.request('/')).json()).version).toBe(version);
    const page = await (await app.request('/', { headers: { accept: 'text/html' } })).text();
    expect(page).toContain(`<small id="version">explorer ${version}</small>`);
    expect((await (await app.request('/v1/status')).json()).status.api.version).toBe(version);
  });

  it('stays one: the changesets fixed group holds every published package', () => {
    const config = JSON.parse(readFileSync(join(root, '.changeset/config.json'), 'utf8')) as {
      fixed: string[][];
    };
    expect(config.fixed).toHaveLength(1);
    expect([...config.fixed[0]!].sort()).toEqual(published.map((p) => p.name).sort());
  });
});

describe('the workspace’s package graph', () => {
  const workspace = [...packages, ...manifests('examples')];
  const edges = new Map(
    workspace.map((p) => [
      p.name,
      Object.keys({ ...p.dependencies, ...p.devDependencies }).filter((d) => d.startsWith('@explorer/')),
    ]),
  );

  it('names only workspace packages, and has no cycle (test packages included)', () => {
    for (const [name, deps] of edges) for (const d of deps) expect(edges.has(d), `${name} → ${d}`).toBe(true);
    const path: string[] = [];
    const done = new Set<string>();
    const visit = (name: string) => {
      if (done.has(name)) return;
      expect(path, `a cycle: ${[...path, name].join(' → ')}`).not.toContain(name);
      path.push(name);
      for (const d of edges.get(name) ?? []) visit(d);
      path.pop();
      done.add(name);
    };
    for (const name of edges.keys()) visit(name);
    expect(done.size).toBe(workspace.length);
  });
});
