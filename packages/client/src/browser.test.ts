import { type ServedFixture, serveChainFixture } from '@explorer/chain-fixture';
import { blockEvents, CHROMIUM_ARGS, chromiumPath } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleClient } from './test-support/bundle.js';

if (!chromiumPath) console.log('browser.test: skipped, no Chromium found (set CHROMIUM_PATH)');

const EVENTS = blockEvents(6);

/**
 * `/v1/events` as a finite stream in the API's format (the fixture's adapter buffers a body, so each answer
 * ends, as a dropped connection does): events 1–3, then, resumed, from one before the id asked for.
 */
function eventStream(req: Request): Response {
  const last = new URL(req.url).searchParams.get('lastEventId');
  const from = last === null ? 0 : Number(last) - 1;
  const body = EVENTS.slice(from, from + 3)
    .map((e) => `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
    .join(': ping\n\n');
  return new Response(`retry: 10\n: hello\n\n${body}`, {
    headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' },
  });
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>client</title>
<script type="module">import * as explorer from '/client.js'; window.explorer = explorer; window.ready = true;</script>`;

describe.skipIf(!chromiumPath)('@explorer/client in Chromium', () => {
  let served: ServedFixture;
  let browser: import('playwright-core').Browser;

  beforeAll(async () => {
    const code = await bundleClient({ withKy: true });
    served = await serveChainFixture((req) => {
      const path = new URL(req.url).pathname;
      if (path === '/')
        return new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } });
      if (path === '/client.js')
        return new Response(code, { headers: { 'content-type': 'text/javascript' } });
      if (path === '/v1/events') return eventStream(req);
      return null;
    });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [...CHROMIUM_ARGS, '--disable-component-update', '--no-first-run'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('lists and gets blocks, pages through an address with .all(), and surfaces a 404', async () => {
    const busy = served.fixture.devnet.truth().busyAddresses[0]!;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(served.server.url);
    await page.waitForFunction(() => (window as any).ready === true);
    const result = await page.evaluate(async (address) => {
      const { createExplorerClient, ExplorerApiError } = (window as any).explorer;
      const client = createExplorerClient({ baseUrl: location.origin, validate: true });
      const list = await client.blocks.list({ limit: 5 });
      const { block } = await client.blocks.get(list.blocks[1].hash);
      const requests: string[] = [];
      const counting = createExplorerClient({
        baseUrl: location.origin,
        fetch: (input: Request, init?: RequestInit) => {
          requests.push(String(input instanceof Request ? input.url : input));
          return fetch(input, init);
        },
      });
      const txids: string[] = [];
      for await (const tx of counting.addresses.txs(address, { limit: 10 }).all({ max: 30 }))
        txids.push(tx.txid);
      let notFound: Record<string, unknown> | null = null;
      try {
        await client.blocks.get(99999999);
      } catch (e: any) {
        notFound = {
          isApiError: e instanceof ExplorerApiError,
          name: e.name,
          status: e.status,
          message: e.message,
          requestId: e.requestId,
          bodyRequestId: e.body?.meta?.requestId,
        };
      }
      return {
        userAgent: navigator.userAgent,
        heights: list.blocks.map((b: any) => b.height),
        hasMore: list.pagination.hasMore,
        block: { height: block.height, hash: block.hash },
        txids,
        pages: requests.length,
        cursors: requests.filter((u) => u.includes('cursor=')).length,
        notFound,
      };
    }, busy);
    expect(errors).toEqual([]);
    expect(result.userAgent).toMatch(/Chrome/);
    const tip = served.fixture.devnet.height();
    expect(result.heights).toEqual([tip, tip - 1, tip - 2, tip - 3, tip - 4]);
    expect(result.hasMore).toBe(true);
    expect(result.block.height).toBe(tip - 1);
    expect(result.txids).toHaveLength(30);
    expect(new Set(result.txids).size).toBe(30);
    expect(result).toMatchObject({ pages: 3, cursors: 2 });
    const direct = (await served.fixture.get(`/v1/addresses/${busy}/txs?limit=30`)).body;
    expect(result.txids).toEqual(direct.txs.map((t: { txid: string }) => t.txid));
    expect(result.notFound).toMatchObject({
      isApiError: true,
      name: 'ExplorerApiError',
      status: 404,
      message: 'block 99999999 not found',
    });
    expect(result.notFound!.requestId).toMatch(/.+/);
    expect(result.notFound!.requestId).toBe(result.notFound!.bodyRequestId);
  });

  it('subscribes to events over fetch streams, resuming after a dropped stream without repeating one', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(served.server.url);
    await page.waitForFunction(() => (window as any).ready === true);
    const result = await page.evaluate(async () => {
      const { createExplorerClient } = (window as any).explorer;
      const client = createExplorerClient({ baseUrl: location.origin, retry: { backoffMs: 5 } });
      const sub = client.events.subscribe({ topics: ['block'] });
      const ids: string[] = [];
      const heights: number[] = [];
      for await (const event of sub) {
        ids.push(event.id);
        heights.push(event.data.height);
        if (ids.length === 5) break;
      }
      return { ids, heights, last: sub.lastEventId };
    });
    expect(errors).toEqual([]);
    expect(result).toEqual({
      ids: ['1', '2', '3', '4', '5'],
      heights: [1, 2, 3, 4, 5],
      last: '5',
    });
  });
});
