import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pearldRealProofBlocks } from '@explorer/test-vectors';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { startDevnetChain } from './devnet-chain.js';

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
});
