import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pearldRealProofBlocks } from '@explorer/test-vectors';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDevnetArgs } from './bin-options.js';
import { createDevnet } from './devnet.js';
import { createReplayDevnet } from './replay/replay-devnet.js';

const NOW = 1_800_000_000;
const dir = mkdtempSync(join(tmpdir(), 'devnet-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const generated = (argv: string[]) => {
  const c = parseDevnetArgs(argv, NOW);
  if (c.kind !== 'generate') throw new Error(`expected a generated chain, got ${c.kind}`);
  return c;
};

describe('explorer-devnet arguments', () => {
  it('end the generated history about now unless a genesis time is given', async () => {
    const c = generated(['--blocks', '60', '--proof-max', '400']);
    expect(c.options.genesisTime).toBe(NOW - 60 * 150);
    const devnet = createDevnet(c.options);
    const tip = (await devnet.rpc('getblock', [devnet.tipHash(), 1])) as { time: number };
    // The gaps are random around the target spacing: the tip lands within a fraction of the history of now.
    expect(Math.abs(tip.time - NOW)).toBeLessThan(60 * 150 * 0.35);
  });

  it('keep a given genesis time, so that every start builds the same chain', () => {
    const a = generated(['--blocks', '5', '--genesis-time', '1700000000', '--proof-max', '400']);
    const b = generated(['--blocks', '5', '--genesis-time', '1700000000', '--proof-max', '400']);
    expect(a.options.genesisTime).toBe(1_700_000_000);
    expect(createDevnet(a.options).tipHash()).toBe(createDevnet(b.options).tipHash());
  });

  it('read a replay file of blocks, as the test vectors keep them or as a bare array', () => {
    const file = join(dir, 'blocks.json');
    const { blocks } = pearldRealProofBlocks();
    writeFileSync(file, JSON.stringify({ blocks: blocks.slice(0, 3) }));
    const c = parseDevnetArgs(['--replay', file, '--replay-revealed', '2', '--interval-ms', '50'], NOW);
    expect(c).toMatchObject({ kind: 'replay', intervalMs: 50, replay: { revealed: 2 } });
    if (c.kind !== 'replay') return;
    expect(createReplayDevnet(c.replay).height()).toBe(1);
    writeFileSync(file, JSON.stringify(blocks.slice(0, 2)));
    expect(parseDevnetArgs(['--replay', file], NOW)).toMatchObject({ kind: 'replay' });
  });

  it('pay an HD wallet given by its key, as many addresses as asked', () => {
    const tpub =
      'tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz';
    const c = generated([
      '--blocks',
      '40',
      '--proof-max',
      '400',
      '--hd-wallet',
      tpub,
      '--hd-wallet-addresses',
      '3,1',
    ]);
    expect(c.options).toMatchObject({ hdWallet: tpub, hdWalletAddresses: [3, 1] });
    // The key is read (and a private or foreign one refused) when the chain is built.
    expect(createDevnet({ ...c.options, coinbaseMaturity: 5 }).height()).toBe(40);
    expect(() => generated(['--hd-wallet-addresses', '3,1'])).toThrow(/goes with --hd-wallet/);
    expect(() => generated(['--hd-wallet', tpub, '--hd-wallet-addresses', '3'])).toThrow(/two counts/);
  });

  it('refuse what does not go together', () => {
    const file = join(dir, 'none.json');
    writeFileSync(file, '{"blocks": 3}');
    expect(() => parseDevnetArgs(['--replay', file], NOW)).toThrow(/expected/);
    expect(() => parseDevnetArgs(['--replay', file, '--seed', 'x'], NOW)).toThrow(/--seed/);
    expect(() => parseDevnetArgs(['--replay-revealed', '2'], NOW)).toThrow(/go with --replay/);
    expect(() => parseDevnetArgs(['--rpc-cert', 'a'], NOW)).toThrow(/go together/);
  });
});
