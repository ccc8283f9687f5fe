import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, chromiumPath, seedDataDir, TEST_SERVER_SETTINGS } from '@explorer/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { createRuntime, type Runtime } from '../runtime/index.js';
import { SERVER_VERSION } from '../version.js';

const hasChromium = chromiumPath !== undefined;
if (!hasChromium) console.log('root-page.browser.test: skipped, no Chromium found (set CHROMIUM_PATH)');

const BLOCKS = 20;

describe.skipIf(!hasChromium)('the front door in Chromium, on a running explorer (PGlite, devnet)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'explorer-front-door-'));
  let runtime: Runtime;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    const config = loadConfig({
      EXPLORER_DATA_DIR: await seedDataDir(dataDir),
      PORT: '0',
      ...TEST_SERVER_SETTINGS,
      DEVNET_BLOCKS: String(BLOCKS),
      DEVNET_INTERVAL_MS: '0',
      INDEXER_POLL_MS: '50',
    });
    const { chromium } = await import('playwright-core');
    [runtime, browser] = await Promise.all([
      createRuntime(config, { log: createLogger({ level: 'silent' }) }),
      chromium.launch({
        executablePath: chromiumPath,
        args: CHROMIUM_ARGS,
      }),
    ]);
    url = runtime.url!;
    for (const end = Date.now() + 300_000; ; await new Promise((r) => setTimeout(r, 100))) {
      const body = await (await fetch(`${url}/v1/status`)).json();
      if (body.status?.indexer?.state === 'synced' && body.meta.indexedTip === BLOCKS) break;
      if (Date.now() > end) throw new Error(`the index did not reach ${BLOCKS}`);
    }
  });

  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the tip and the latest blocks, and its links lead to the reference and the document', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${m.text()} (${m.location().url})`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
    });

    const response = await page.goto(`${url}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.title()).toBe('Explorer API · Pearl regtest');
    expect(await page.textContent('#version')).toBe(`explorer ${SERVER_VERSION}`);
    expect(await page.textContent('#indexed-tip')).toBe(String(BLOCKS));
    expect(await page.textContent('#node-height')).toBe(String(BLOCKS));
    expect(await page.textContent('#sync-state')).toBe('synced (0 blocks behind)');
    expect(await page.textContent('#chain')).toBe('Pearl regtest (PRL) · rprl');
    const heights = await page.$$eval('#latest-blocks tbody tr td:first-child', (tds) =>
      tds.map((td) => Number(td.textContent)),
    );
    expect(heights).toEqual(Array.from({ length: 8 }, (_, i) => BLOCKS - i));

    // The reference: Swagger UI, served locally, renders the served document.
    await Promise.all([page.waitForURL(`${url}/docs`), page.click('#docs-link')]);
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 20_000 });
    expect(await page.textContent('.swagger-ui .info .title')).toContain('Blockchain Explorer Read API');
    expect(await page.locator('.opblock').count()).toBeGreaterThan(10);

    await page.goBack();
    const [doc] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${url}/v1/openapi.json`),
      page.click('#openapi-link'),
    ]);
    expect(doc.status()).toBe(200);
    expect((await doc.json()).info.version).toBe(SERVER_VERSION);

    expect(errors).toEqual([]);
    await page.close();
  });
});
