import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDataDir } from '@explorer/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';

// Records whether the simulated chain's package is ever loaded (the mock is the real module, observed).
const loaded = vi.hoisted(() => ({ devnet: false }));
vi.mock('@explorer/devnet', async (original) => {
  loaded.devnet = true;
  return original();
});

const root = mkdtempSync(join(tmpdir(), 'explorer-demo-load-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const log = createLogger({ level: 'silent' });

describe('the devnet in the server', () => {
  it('is never loaded by a process with a node; the demo loads it when it starts', async () => {
    const { createRuntime } = await import('./index.js');
    expect(loaded.devnet).toBe(false);

    // A deployment: a node of its own (here an API-only process, which never calls it at start).
    const deployed = await createRuntime(
      loadConfig(
        {
          EXPLORER_DATA_DIR: await seedDataDir(join(root, 'a')),
          NODE_RPC_URL: 'http://u:p@127.0.0.1:9',
          PORT: '0',
          METRICS_PORT: 'off',
        },
        { index: false },
      ),
      { log, http: false },
    );
    await deployed.close();
    expect(loaded.devnet).toBe(false);

    const demo = await createRuntime(
      loadConfig({
        EXPLORER_DATA_DIR: await seedDataDir(join(root, 'b')),
        DEVNET_BLOCKS: '3',
        DEVNET_INTERVAL_MS: '0',
        PORT: '0',
        METRICS_PORT: 'off',
      }),
      { log, http: false },
    );
    await demo.close();
    expect(loaded.devnet).toBe(true);
  });
});
