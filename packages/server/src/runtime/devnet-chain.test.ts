import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pearldRealProofBlocks } from '@explorer/test-vectors';
import { getJson, seedDataDir, TEST_SERVER_SETTINGS, waitFor } from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { DEMO_WALLET_KEY, startDevnetChain } from './devnet-chain.js';
import { createRuntime } from './index.js';

const root = mkdtempSync(join(tmpdir(), 'explorer-devnet-chain-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the server's built-in devnet", () => {
  it('generates a history that ends about now', async () => {
    const now = 1_800_000_000_000;
    const config = loadConfig({
      EXPLORER_DATA_DIR: join(root, 'gen'),
      DEVNET_BLOCKS: '40',
      DEVNET_INTERVAL_MS: '0',
    });
    const chain = await startDevnetChain(config, now);
    try {
      const tip = (await chain.devnet.rpc('getblockheader', [
        await chain.devnet.rpc('getbestblockhash'),
      ])) as {
        time: number;
      };
      expect(Math.abs(tip.time - now / 1000)).toBeLessThan(40 * 150 * 0.35);
      expect(chain.poolsFile).toBeDefined();
    } finally {
      await chain.close();
    }
  });

  it('replays the blocks of DEVNET_REPLAY_FILE instead, all of them when it does not mine', async () => {
    const file = join(root, 'blocks.json');
    writeFileSync(file, JSON.stringify({ blocks: pearldRealProofBlocks().blocks }));
    const config = loadConfig({
      EXPLORER_DATA_DIR: join(root, 'replay'),
      DEVNET_REPLAY_FILE: file,
      DEVNET_INTERVAL_MS: '0',
    });
    expect(config.devnetReplayFile).toBe(file);
    const chain = await startDevnetChain(config);
    try {
      expect(chain.devnet.height()).toBe(21);
      expect(await chain.devnet.rpc('getbestblockhash')).toBe(
        'fee440a2719f70a1276e46e5138e50ad5a0f1805ddc3f3783ada2bb5be300716',
      );
      expect(chain.poolsFile).toBeUndefined();
      const res = await fetch(chain.url, {
        method: 'POST',
        body: JSON.stringify({ id: 1, method: 'getchaintips', params: [] }),
      });
      expect(((await res.json()) as { result: unknown[] }).result).toHaveLength(2);
    } finally {
      await chain.close();
    }
  });

  it('pays the demo wallet the getting-started guide shows, so the wallet endpoints find it on the first start', async () => {
    const guide = readFileSync(new URL('../../../../docs/getting-started.md', import.meta.url), 'utf8');
    const shown = [...guide.matchAll(/npm run explorer -- wallet (\S+)/g)].map((m) => m[1]);
    expect(shown.length).toBeGreaterThan(0);
    expect(new Set(shown)).toEqual(new Set([DEMO_WALLET_KEY]));
    // Enough blocks for coinbases to mature (100) and then pay its 15 addresses, one per block.
    const blocks = 130;
    const runtime = await createRuntime(
      loadConfig({
        EXPLORER_DATA_DIR: await seedDataDir(join(root, 'demo-wallet')),
        DEVNET_BLOCKS: String(blocks),
        DEVNET_INTERVAL_MS: '0',
        PORT: '0',
        ...TEST_SERVER_SETTINGS,
      }),
      { log: createLogger({ level: 'silent' }) },
    );
    try {
      await waitFor('the index to reach the devnet tip', async () => {
        const { body } = await getJson(`${runtime.url}/v1/status`);
        return body.status?.indexer?.state === 'synced' && body.status.indexer.tipHeight === blocks;
      });
      const { status, body } = await getJson(`${runtime.url}/v1/wallet?key=${DEMO_WALLET_KEY}`);
      expect(status).toBe(200);
      const { wallet } = body;
      expect(wallet.used.map((a: { path: string }) => a.path)).toEqual([
        ...Array.from({ length: 10 }, (_, i) => `0/${i}`),
        ...Array.from({ length: 5 }, (_, i) => `1/${i}`),
      ]);
      expect(BigInt(wallet.balance)).toBeGreaterThan(0n);
      expect(wallet.firstUnused.receive.path).toBe('0/10');
    } finally {
      await runtime.close();
    }
  });
});
