import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { createExampleServer, type ExampleServer } from '@explorer/example-embed-node-http';
import { CHROMIUM_ARGS, chromiumPath } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = fileURLToPath(new URL('.', import.meta.url));
const realDist = join(here, '../../packages/client/dist');
const realClientBuilt =
  existsSync(join(realDist, 'index.js')) &&
  /\bcreateExplorerClient\b/.test(readFileSync(join(realDist, 'index.js'), 'utf8'));

if (!chromiumPath) console.info('browser-dapp (browser): skipped, no Chromium found (set CHROMIUM_PATH)');
if (!realClientBuilt)
  console.info('browser-dapp (browser): real SDK check skipped, packages/client/dist is not built yet');

// A stand-in for the SDK bundle with the same surface, importing ky like the real one, so the page and the
// server are tested before the client is built.
const FAKE_SDK = `import ky from 'ky';
export function createExplorerClient({ baseUrl }) {
  const http = ky.create({ prefixUrl: baseUrl, retry: 0 });
  return {
    status: () => http.get('v1/status').json(),
    blocks: { list: ({ limit }) => http.get('v1/blocks', { searchParams: { limit } }).json() },
  };
}
`;

async function startServe(clientDist: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(here, 'serve.mjs')], {
    env: { ...process.env, PORT: '0', CLIENT_DIST: clientDist },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`serve.mjs exited with ${code}: ${out}`)));
  });
  return { url, child };
}

async function renderedPage(chromiumPath: string, url: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    chromiumPath,
    // Virtual time the page may use before the DOM is dumped; network fetches pause it, so a large budget
    // costs little real time and leaves the page ample room on a loaded machine.
    [...CHROMIUM_ARGS, '--virtual-time-budget=30000', '--dump-dom', url],
    { timeout: 150_000, maxBuffer: 10_000_000 },
  );
  return stdout;
}

describe('browser-dapp serve.mjs', () => {
  let dist: string;
  let served: { url: string; child: ChildProcess };

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'dapp-sdk-'));
    writeFileSync(join(dist, 'index.js'), FAKE_SDK);
    served = await startServe(dist);
  });
  afterAll(() => {
    served?.child.kill();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the page with an import map for the SDK and the packages it imports', async () => {
    const res = await fetch(`${served.url}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(html)![1]!);
    expect(map.imports['@explorer/client']).toBe('/sdk/index.js');
    expect(map.imports.ky).toMatch(/^\/vendor\/ky\/.+\.js$/);
    const ky = await fetch(`${served.url}${map.imports.ky}`);
    expect(ky.status).toBe(200);
    expect(ky.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('refuses a port in use with one line, not a stack trace', async () => {
    const port = new URL(served.url).port;
    const child = spawn(process.execPath, [join(here, 'serve.mjs')], {
      env: { ...process.env, PORT: port, CLIENT_DIST: dist },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(stderr).toBe(
      `cannot listen on 127.0.0.1:${port}: address in use; stop what holds it, or run with PORT=<another port>\n`,
    );
  });

  it('serves app.js and the bundle, and nothing outside them', async () => {
    expect((await fetch(`${served.url}/app.js`)).status).toBe(200);
    expect(await (await fetch(`${served.url}/sdk/index.js`)).text()).toBe(FAKE_SDK);
    expect((await fetch(`${served.url}/sdk/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    expect((await fetch(`${served.url}/vendor/ky/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${served.url}/serve.mjs`)).status).toBe(404);
  });
});

describe.skipIf(!chromiumPath)('browser-dapp in headless Chromium (browser)', () => {
  let f: ChainFixture;
  let api: ExampleServer;
  let apiUrl: string;

  beforeAll(async () => {
    f = await createChainFixture('pglite');
    api = createExampleServer({ sql: f.db.sql });
    apiUrl = await api.listen(0);
  });
  afterAll(async () => {
    await api?.close();
    await f?.close();
  });

  async function check(clientDist: string) {
    const served = await startServe(clientDist);
    try {
      const dom = await renderedPage(chromiumPath!, `${served.url}/?api=${encodeURIComponent(apiUrl)}`);
      // The page called the API across origins and rendered the status line and ten rows.
      expect(dom).toContain(`indexed tip ${f.devnet.height()}`);
      expect(dom.match(/<td class="hash">/g)).toHaveLength(10);
      expect(dom).toMatch(/<p id="error" role="alert"><\/p>/);
    } finally {
      served.child.kill();
    }
  }

  it('renders the latest blocks through a stand-in SDK bundle', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'dapp-sdk-'));
    writeFileSync(join(dist, 'index.js'), FAKE_SDK);
    try {
      await check(dist);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it.skipIf(!realClientBuilt)(
    'renders the latest blocks through the built @explorer/client',
    async () => {
      await check(realDist);
    },
    180_000,
  );
});
