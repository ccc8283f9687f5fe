import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChainEvent } from '@explorer/core';
import { createDevnet, type Devnet } from '@explorer/devnet';
import { CHROMIUM_ARGS, chromiumPath, seedDataDir, TEST_SERVER_SETTINGS, waitFor } from '@explorer/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { createRuntime, type Runtime } from '../runtime/index.js';

const hasChromium = chromiumPath !== undefined;
if (!hasChromium) console.log('live.browser.test: skipped, no Chromium found (set CHROMIUM_PATH)');

type Summary = {
  id: string;
  type: string;
  height?: number;
  hash?: string;
  removed?: string[];
  added?: string[];
};
/** What a test compares of an event. */
const summary = (e: ChainEvent): Summary =>
  e.type === 'block'
    ? { id: e.id, type: e.type, height: e.data.height, hash: e.data.hash }
    : e.type === 'reorg'
      ? {
          id: e.id,
          type: e.type,
          removed: e.data.removed.map((b) => b.hash),
          added: e.data.added.map((b) => b.hash),
        }
      : { id: e.id, type: e.type };

describe.skipIf(!hasChromium)(
  'live events in Chromium, over EventSource and WebSocket, while the devnet mines',
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'explorer-live-'));
    let devnet: Devnet;
    let closeDevnet: () => Promise<void>;
    let runtime: Runtime;
    let url: string;
    let browser: Browser;
    let page: Page;

    const indexed = (height: number) =>
      waitFor(`the index to reach ${height}`, async () => {
        const body = await (await fetch(`${url}/v1/status`)).json();
        return body.meta.indexedTip === height && body.status.indexer.tipHash === devnet.tipHash();
      });
    const received = async (which: 'sse' | 'ws'): Promise<ChainEvent[]> =>
      page.evaluate((w) => (window as unknown as Record<string, ChainEvent[]>)[w]!, which);

    beforeAll(async () => {
      devnet = createDevnet({ seed: 'live-events', blocks: 30, txPerBlock: 3, coinbaseMaturity: 5 });
      const served = await devnet.listen({ port: 0 });
      closeDevnet = served.close;
      const config = loadConfig({
        EXPLORER_DATA_DIR: await seedDataDir(dataDir),
        PORT: '0',
        ...TEST_SERVER_SETTINGS,
        NODE_RPC_URL: served.url,
        INDEXER_POLL_MS: '50',
      });
      const { chromium } = await import('playwright-core');
      [runtime, browser] = await Promise.all([
        createRuntime(config, { log: createLogger({ level: 'silent' }) }),
        chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS }),
      ]);
      url = runtime.url!;
      await indexed(devnet.height());
      page = await browser.newPage();
      await page.goto(`${url}/v1/status`);
      // The page's own EventSource and WebSocket, as a dApp would open them.
      await page.evaluate(() => {
        const w = window as unknown as Record<string, unknown>;
        const sse: unknown[] = [];
        const ws: unknown[] = [];
        const control: unknown[] = [];
        Object.assign(w, { sse, ws, control });
        const open = (query: string) => {
          const es = new EventSource(`/v1/events?${query}`);
          for (const t of ['block', 'reorg'])
            es.addEventListener(t, (e) => sse.push(JSON.parse((e as MessageEvent).data)));
          return es;
        };
        w.open = open;
        w.es = open('topics=block,reorg');
        const socket = new WebSocket(`ws://${location.host}/v1/ws`);
        socket.onopen = () => socket.send(JSON.stringify({ type: 'subscribe', topics: ['block', 'reorg'] }));
        socket.onmessage = (m) => {
          const d = JSON.parse(m.data);
          if (d.type === 'event') ws.push(d.event);
          else control.push(d);
        };
      });
      await waitFor('both transports open', () =>
        page.evaluate(() => {
          const w = window as unknown as { es: EventSource; control: { type: string }[] };
          return w.es.readyState === 1 && w.control.some((c) => c.type === 'subscribed');
        }),
      );
    });

    afterAll(async () => {
      await browser?.close();
      await runtime?.close();
      await closeDevnet?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('receives each new block once, in order, over both', async () => {
      const from = devnet.height();
      const mined: string[] = [];
      for (let i = 0; i < 3; i++) {
        mined.push(...devnet.mine(1));
        await indexed(from + i + 1);
      }
      await waitFor(
        'three blocks over both',
        async () => (await received('sse')).length >= 3 && (await received('ws')).length >= 3,
      );
      const sse = (await received('sse')).map(summary);
      expect(sse.map((e) => [e.type, e.height, e.hash])).toEqual(
        mined.map((hash, i) => ['block', from + i + 1, hash]),
      );
      expect((await received('ws')).map(summary)).toEqual(sse);
    });

    it('a reorg gives one reorg event naming the blocks removed and added, then the new branch’s blocks', async () => {
      const before = (await received('sse')).length;
      const result = devnet.reorg(2, { extra: 1 });
      await indexed(devnet.height());
      // `added` is the new branch as the node had it when the rollback ran: here, all of it at once.
      await waitFor(
        'the reorg and the new branch over both',
        async () =>
          (await received('sse')).length >= before + 4 && (await received('ws')).length >= before + 4,
      );
      const after = (await received('sse')).slice(before).map(summary);
      expect(after).toEqual([
        { id: expect.any(String), type: 'reorg', removed: result.removed, added: result.added },
        ...result.added.map((hash, i) => ({
          id: expect.any(String),
          type: 'block',
          height: result.forkHeight + 1 + i,
          hash,
        })),
      ]);
      expect((await received('ws')).slice(before).map(summary)).toEqual(after);
    });

    it('a client that disconnects and resumes with its last id misses nothing and sees nothing twice', async () => {
      const last = (await received('sse')).at(-1)!.id;
      await page.evaluate(() => (window as unknown as { es: EventSource }).es.close());
      const from = devnet.height();
      for (let i = 0; i < 2; i++) {
        devnet.mine(1);
        await indexed(from + i + 1);
      }
      // Reconnect as EventSource does after a drop (Last-Event-ID), here through the query a page can set.
      await page.evaluate((id) => {
        const w = window as unknown as { sse: unknown[]; open(q: string): EventSource; es: EventSource };
        w.sse.length = 0;
        w.es = w.open(`topics=block,reorg&lastEventId=${id}`);
      }, last);
      await waitFor('the missed blocks', async () => (await received('sse')).length >= 2);
      devnet.mine(1);
      await indexed(from + 3);
      // The socket stayed connected throughout: what it got after `last` is what the resumed stream must get.
      const wsAfter = async () => (await received('ws')).filter((e) => BigInt(e.id) > BigInt(last));
      await waitFor(
        'the next block over both',
        async () => (await received('sse')).length >= 3 && (await wsAfter()).length >= 3,
      );
      const ws = (await wsAfter()).map(summary);
      expect((await received('sse')).map(summary)).toEqual(ws);
      expect(ws.map((e) => e.height)).toEqual([from + 1, from + 2, from + 3]);
    });

    it('resumes with the Last-Event-ID header too, and refuses a malformed one with the error envelope', async () => {
      const events = await received('ws');
      const last = events.at(-2)!.id;
      const controller = new AbortController();
      const res = await fetch(`${url}/v1/events?topics=block`, {
        headers: { 'last-event-id': last },
        signal: controller.signal,
      });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes(`id: ${events.at(-1)!.id}`))
        text += new TextDecoder().decode((await reader.read()).value);
      expect(text.match(/^id: /gm)).toHaveLength(1);
      controller.abort();
      const bad = await fetch(`${url}/v1/events`, { headers: { 'last-event-id': 'yesterday' } });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ ok: false, error: expect.stringContaining('Last-Event-ID') });
    });
  },
);
