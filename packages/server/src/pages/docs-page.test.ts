import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createExplorerApi, v1Routes } from '@explorer/core';
import { chromiumPath, failingStore } from '@explorer/testing';
import { describe, expect, it } from 'vitest';
import { type ApiHandler, createServerApp } from '../http/app.js';
import { createLogger } from '../logger.js';
import { serveApp } from '../test-support/serve-app.js';
import { createDocsPage } from './docs-page.js';

const chromium = chromiumPath;
if (!chromium) console.info('docs page (browser): skipped, no Chromium found (set CHROMIUM_PATH)');

function setup() {
  const calls: string[] = [];
  const api: ApiHandler = {
    async handle(request) {
      calls.push(new URL(request.url).pathname);
      return new Response('{"openapi":"3.1.0"}', { headers: { 'content-type': 'application/json' } });
    },
  };
  const app = createServerApp({ api, log: createLogger({ level: 'silent' }) });
  return { app, calls };
}

describe('docs page', () => {
  it('answers /docs with an HTML page that loads local Swagger UI over /v1/openapi.json', async () => {
    const { app, calls } = setup();
    const res = await app.request('/docs', { headers: { 'x-request-id': 'docs-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-request-id')).toBe('docs-1');
    const html = await res.text();
    expect(html).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
    expect(html).toContain('href="/docs/assets/swagger-ui.css"');
    expect(html).toContain('data-openapi-url="/v1/openapi.json"');
    expect(html).not.toMatch(/https?:\/\//);
    expect(calls).toEqual([]);
  });

  it('serves the Swagger UI bundle, stylesheet and initialiser from the installed package', async () => {
    const { app } = setup();
    const js = await app.request('/docs/assets/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    const text = await js.text();
    expect(text.length).toBeGreaterThan(100_000);
    expect(text).toContain('SwaggerUIBundle');

    const css = await app.request('/docs/assets/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('.swagger-ui');

    const init = await app.request('/docs/assets/docs-init.js');
    expect(init.status).toBe(200);
    expect(await init.text()).toContain('SwaggerUIBundle(');
  });

  it('serves only the files it names', async () => {
    const { app } = setup();
    expect((await app.request('/docs/assets/package.json')).status).toBe(404);
    expect((await app.request('/docs/assets/..%2F..%2Fpackage.json')).status).toBe(404);
  });

  it('leaves /v1/docs and /v1/openapi.json to the API', async () => {
    const { app, calls } = setup();
    expect((await app.request('/v1/docs')).headers.get('content-type')).toBe('application/json');
    await app.request('/v1/openapi.json');
    expect(calls).toEqual(['/v1/docs', '/v1/openapi.json']);
  });

  it('escapes the options it puts in the page', async () => {
    const res = await createDocsPage({ title: '<x>', openapiUrl: '/a?b="c"' }).request('/');
    const html = await res.text();
    expect(html).toContain('<title>&lt;x&gt;</title>');
    expect(html).toContain('data-openapi-url="/a?b=&quot;c&quot;"');
  });
});

describe.skipIf(!chromium)('docs page in headless Chromium (browser)', () => {
  it('renders the operations of the served OpenAPI document', async () => {
    // The OpenAPI document needs no database; the tip read fails and is reported as unknown.
    const api = createExplorerApi({ store: failingStore, routes: v1Routes });
    const server = await serveApp(createServerApp({ api, log: createLogger({ level: 'silent' }) }).fetch);
    try {
      const { stdout } = await promisify(execFile)(
        chromium!,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          // Virtual time the page may use before the DOM is dumped; network fetches pause it, so a large
          // budget costs little real time and leaves Swagger UI ample room on a loaded machine.
          '--virtual-time-budget=30000',
          '--dump-dom',
          `${server.url}/docs`,
        ],
        { timeout: 150_000, maxBuffer: 20_000_000 },
      );
      expect(stdout).toContain('class="swagger-ui');
      expect(stdout).toContain('opblock-summary-path');
      expect(stdout).toContain('/v1/blocks/{heightOrHash}');
      // Anonymous access is allowed everywhere: no operation shows the closed padlock of a required key.
      const operations = stdout.match(/class="opblock-summary-path"/g)?.length ?? 0;
      expect(operations).toBeGreaterThan(30);
      expect(stdout).not.toContain('authorization button locked');
      expect(stdout.match(/aria-label="authorization optional: anonymous access is allowed/g)?.length).toBe(
        operations,
      );
    } finally {
      await server.close();
    }
  });
});
