import { describe, expect, it } from 'vitest';
import { auditChain } from '../audit.js';
import { createDevnet as createChain, type Devnet, type DevnetOptions } from '../index.js';

type Block = {
  hash: string;
  confirmations: number;
  previousblockhash?: string;
  tx: string[];
  height: number;
};

async function block(d: Devnet, hash: string): Promise<Block> {
  return (await d.rpc('getblock', [hash])) as Block;
}

async function audit(d: Devnet): Promise<void> {
  const defs = d.definitions();
  const result = await auditChain((m, p) => d.rpc(m, p), {
    pools: defs.pools,
    burnAddresses: defs.labels.filter((l) => l.kind === 'burn').map((l) => l.address),
    halvingInterval: d.options.halvingInterval,
    dialect: d.options.dialect,
  });
  const { balances: _b, busyAddresses: _a, ...truth } = d.truth();
  expect(result).toEqual(truth);
}

/** A block off the best chain: Core still renders it (confirmations -1); pearld serves only its bytes. */
async function expectStale(d: Devnet, hash: string): Promise<void> {
  if (d.options.dialect === 'pearl') {
    await expect(d.rpc('getblock', [hash])).rejects.toMatchObject({ code: -32603 });
    expect(((await d.rpc('getblock', [hash, 0])) as string).length).toBeGreaterThan(216);
    return;
  }
  const again = await block(d, hash);
  expect(again.confirmations).toBe(-1);
  expect(again).not.toHaveProperty('nextblockhash');
}

describe.each(['pearl', 'bitcoin'] as const)('reorgs (%s dialect)', (dialect) => {
  const createDevnet = (o: DevnetOptions) => createChain({ ...o, dialect });
  it('replaces the tip with a longer branch (depth 1)', async () => {
    const d = createDevnet({ blocks: 150, coinbaseMaturity: 10, proofSize: [100, 200] });
    const oldTip = d.tipHash();
    const h = d.height();
    const r = d.reorg(1);
    expect(r.forkHeight).toBe(h - 1);
    expect(r.removed).toEqual([oldTip]);
    expect(r.added).toHaveLength(2);
    expect(d.height()).toBe(h + 1);
    const first = await block(d, r.added[0] as string);
    expect(first.previousblockhash).toBe(await d.rpc('getblockhash', [h - 1]));
    await expectStale(d, oldTip);
    expect(await d.rpc('getblockhash', [h])).toBe(r.added[0]);
    await audit(d);
  });

  it('handles a depth-10 reorg: moved txs, stale blocks, valid accounting', async () => {
    const d = createDevnet({ blocks: 200, coinbaseMaturity: 10, txPerBlock: 12, proofSize: [100, 200] });
    const h = d.height();
    const oldBlocks = await Promise.all(
      Array.from({ length: 10 }, async (_, i) =>
        block(d, (await d.rpc('getblockhash', [h - 9 + i])) as string),
      ),
    );
    const oldTxHeight = new Map<string, number>();
    for (const b of oldBlocks) for (const t of b.tx.slice(1)) oldTxHeight.set(t, b.height);
    const r = d.reorg(10, { extra: 2 });
    expect(r.forkHeight).toBe(h - 10);
    expect(r.added).toHaveLength(12);
    expect(d.height()).toBe(h + 2);
    const newBlocks = await Promise.all(r.added.map((hash) => block(d, hash)));
    expect(newBlocks[0]?.previousblockhash).toBe(await d.rpc('getblockhash', [h - 10]));
    for (let i = 1; i < newBlocks.length; i++)
      expect(newBlocks[i]?.previousblockhash).toBe(newBlocks[i - 1]?.hash);
    for (const b of oldBlocks) await expectStale(d, b.hash);
    let moved = 0;
    let movedElsewhere = 0;
    for (const b of newBlocks)
      for (const t of b.tx.slice(1)) {
        const was = oldTxHeight.get(t);
        if (was !== undefined) {
          moved++;
          if (b.height !== was) movedElsewhere++;
          expect((await d.rpc('getrawtransaction', [t, true])) as { blockhash: string }).toMatchObject({
            blockhash: b.hash,
          });
        }
      }
    expect(moved).toBeGreaterThan(0);
    expect(movedElsewhere).toBeGreaterThan(0);
    const mempool = (await d.rpc('getrawmempool')) as string[];
    expect(mempool.some((t) => oldTxHeight.has(t))).toBe(true);
    await audit(d);
  });

  it('drops spends of a removed coinbase, recursively', async () => {
    const d = createDevnet({
      blocks: 80,
      coinbaseMaturity: 1,
      txPerBlock: 30,
      mempoolSize: 40,
      proofSize: [100, 200],
    });
    d.mine(6);
    const tip = d.height();
    const coinbases = new Set<string>();
    for (let h = tip - 5; h <= tip; h++)
      coinbases.add(((await d.rpc('getblock', [await d.rpc('getblockhash', [h])])) as Block).tx[0] as string);
    const spenders: string[] = [];
    const mempool = (await d.rpc('getrawmempool')) as string[];
    const candidates = [...mempool];
    for (let h = tip - 4; h <= tip; h++)
      candidates.push(
        ...((await d.rpc('getblock', [await d.rpc('getblockhash', [h])])) as Block).tx.slice(1),
      );
    for (const txid of candidates) {
      const tx = (await d.rpc('getrawtransaction', [txid, true])) as { vin: { txid: string }[] };
      if (tx.vin.some((v) => coinbases.has(v.txid))) spenders.push(txid);
    }
    expect(spenders.length).toBeGreaterThan(0);
    const r = d.reorg(6);
    for (const s of spenders) {
      expect(r.dropped).toContain(s);
      await expect(d.rpc('getrawtransaction', [s])).rejects.toMatchObject({ code: -5 });
    }
    await audit(d);
  });

  it('can re-mine the same txs under new headers (dropCoinbaseSpends: false)', async () => {
    const d = createDevnet({ blocks: 60, coinbaseMaturity: 1, proofSize: [100, 200] });
    const old = await block(d, d.tipHash());
    const r = d.reorg(3, { dropCoinbaseSpends: false });
    expect(r.dropped).toEqual([]);
    const replaced = await block(d, r.added[2] as string);
    expect(replaced.hash).not.toBe(old.hash);
    expect(replaced.tx).toEqual(old.tx);
    await audit(d);
  });

  it('is scriptable over RPC', async () => {
    const d = createDevnet({ blocks: 40, coinbaseMaturity: 5, proofSize: [100, 200] });
    const r = (await d.rpc('devnet_reorg', [2, 1])) as {
      forkHeight: number;
      removed: string[];
      added: string[];
    };
    expect(r.removed).toHaveLength(2);
    expect(r.added).toHaveLength(3);
    await expect(d.rpc('devnet_reorg', [1000])).rejects.toMatchObject({ code: -8 });
    const truth = (await d.rpc('devnet_truth')) as { height: number };
    expect(truth.height).toBe(41);
  });
});
