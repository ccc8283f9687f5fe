import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDevnet } from '@explorer/devnet';
import {
  getJson,
  scratchDatabase,
  seedDataDir,
  TEST_SERVER_SETTINGS,
  testDrivers,
  waitFor,
} from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { createRuntime } from './index.js';

// Pool and label definitions are kept with the index: a restart beside the same node without POOLS_FILE and
// LABELS_FILE serves the same attribution and known addresses as before, and says where they came from.

describe.each(testDrivers())(
  'definitions kept with the index across a restart without the files (%s)',
  (driver) => {
    const dir = mkdtempSync(join(tmpdir(), 'explorer-definitions-'));
    const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c();
    });

    it('serves the same pools, block attribution and known addresses, and logs what it kept', async () => {
      const devnet = createDevnet({
        seed: `definitions-${driver}`,
        blocks: 60,
        txPerBlock: 4,
        coinbaseMaturity: 5,
      });
      const node = await devnet.listen({ port: 0 });
      cleanups.push(() => node.close());
      const files = devnet.writeDefinitions(dir);
      let database: Record<string, string> = { EXPLORER_DATA_DIR: join(dir, 'data') };
      if (driver === 'pglite') await seedDataDir(join(dir, 'data'));
      if (driver === 'pg') {
        const scratch = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'definitions');
        cleanups.push(() => scratch.drop());
        database = { ...database, DATABASE_URL: scratch.url };
      }
      const lines: { msg: string }[] = [];
      const log = createLogger({ level: 'info', stream: { write: (s) => lines.push(JSON.parse(s)) } });
      const start = (files: Record<string, string>) =>
        createRuntime(
          loadConfig({
            NODE_RPC_URL: node.url,
            PORT: '0',
            INDEXER_POLL_MS: '50',
            // An explicit environment does not carry the test runner's METRICS_PORT.
            ...TEST_SERVER_SETTINGS,
            ...database,
            ...files,
          }),
          { log },
        );
      /** What attribution decides, as the API serves it, once the index reached the node's tip. */
      const served = async (url: string) => {
        await waitFor('the index to reach the node', async () => {
          const s = (await getJson(`${url}/v1/status`)).body.status;
          return s.indexer.state === 'synced' && s.indexer.tipHeight === devnet.height();
        });
        const blocks = (await getJson(`${url}/v1/blocks?limit=100`)).body.blocks.map(
          (b: { height: number; pool: { id: string } }) => [b.height, b.pool.id],
        );
        const { labels, pools } = (await getJson(`${url}/v1/known-addresses`)).body;
        const ranking = (await getJson(`${url}/v1/pools/top?limit=100`)).body.pools;
        return { blocks, labels, pools, ranking };
      };

      const first = await start({ POOLS_FILE: files.poolsFile, LABELS_FILE: files.labelsFile });
      const before = await served(first.url!).finally(() => first.close());
      expect(before.pools.length).toBeGreaterThan(0);
      expect(before.labels.length).toBeGreaterThan(0);
      expect(before.blocks.some(([, pool]: [number, string]) => pool !== 'unknown')).toBe(true);

      lines.length = 0;
      const second = await start({});
      const after = await served(second.url!).finally(() => second.close());
      expect(after).toEqual(before);
      const kept = lines.filter((l) => l.msg.startsWith('keeping the definitions stored with the index'));
      expect(kept).toHaveLength(1);
      expect(kept[0]!.msg).toMatch(
        new RegExp(
          `: ${before.pools.length} pools from ${files.poolsFile}, loaded \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; \\d+ labels from ${files.labelsFile}, loaded `,
        ),
      );
    });
  },
);
