import { certificateCommitment, decodePearlBlock } from '@explorer/chain';
import { pearldRealProofBlocks, pearldSimnetSample } from '@explorer/test-vectors';
import { describe, expect, it } from 'vitest';
import type { RpcError } from '../rpc-error.js';
import { createReplayDevnet } from './replay-devnet.js';

// A real pearld's 22 real-proof regtest blocks, replayed: the first 21 (genesis to the competing block 20),
// then the other block 20 (no more work: the tip stays), then block 21 on it (a reorganisation).
const { blocks } = pearldRealProofBlocks();
const COMPETING_20 = '1b73ccff83ea2941025b8ba57e798eef2132272e783e780b0160ac4b357875d9';
const ACTIVE_TIP = 'fee440a2719f70a1276e46e5138e50ad5a0f1805ddc3f3783ada2bb5be300716';

describe('a devnet replaying given blocks', () => {
  it('serves the known blocks in pearld’s dialect and steps through the rest, reorganisation included', async () => {
    const devnet = createReplayDevnet({ blocks, revealed: 21 });
    const rpc = (m: string, p: unknown[] = []) => devnet.rpc(m, p) as Promise<any>;
    expect(devnet.height()).toBe(20);
    expect(devnet.tipHash()).toBe(COMPETING_20);
    expect(devnet.remaining()).toBe(2);
    expect(await rpc('getblockcount')).toBe(20);
    expect(await rpc('getblockhash', [20])).toBe(COMPETING_20);
    expect(await rpc('getblock', [COMPETING_20, 0])).toBe(blocks[20]);
    expect(await rpc('getchaintips')).toEqual([
      { height: 20, hash: COMPETING_20, branchlen: 0, status: 'active' },
    ]);
    expect((await rpc('getblockchaininfo')).chain).toBe('regtest');

    const [other20] = devnet.step(1);
    expect(devnet.tipHash()).toBe(COMPETING_20);
    expect((await rpc('getchaintips')).map((t: any) => [t.hash, t.status, t.branchlen])).toEqual(
      [
        [COMPETING_20, 'active', 0],
        [other20, 'valid-fork', 1],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );

    expect(await rpc('generate', [5])).toEqual([ACTIVE_TIP]);
    expect(devnet.height()).toBe(21);
    expect(devnet.tipHash()).toBe(ACTIVE_TIP);
    expect(await rpc('getblockhash', [20])).toBe(other20);
    expect(await rpc('getchaintips')).toEqual([
      { height: 20, hash: COMPETING_20, branchlen: 1, status: 'valid-fork' },
      { height: 21, hash: ACTIVE_TIP, branchlen: 0, status: 'active' },
    ]);
    // The stale block's bytes stay retrievable; its verbose forms are refused, as pearld refuses them.
    expect(await rpc('getblock', [COMPETING_20, 0])).toBe(blocks[20]);
    const err = (await rpc('getblock', [COMPETING_20, 1]).catch((e) => e)) as RpcError;
    expect(err.code).toBe(-32603);
    expect(devnet.step(1)).toEqual([]);
  });

  it('answers getblock 1/2, getblockheader and getrawtransaction as a real pearld does', async () => {
    const devnet = createReplayDevnet({ blocks });
    const rpc = (m: string, p: unknown[] = []) => devnet.rpc(m, p) as Promise<any>;
    const v2 = await rpc('getblock', [ACTIVE_TIP, 2]);
    const real = pearldSimnetSample('getblock_h20_v2.json');
    expect(Object.keys(v2)).toEqual(Object.keys(real));
    expect(Object.keys(v2.rawtx[0])).toEqual(Object.keys(real.rawtx[0]));
    expect(Object.keys(v2.rawtx[0].vin[0])).toEqual(Object.keys(real.rawtx[0].vin[0]));
    // The certificate counts in size, not in weight (as the real node reports these blocks).
    expect(v2).toMatchObject({ height: 21, size: 60_071, strippedsize: 267, vsize: 276, confirmations: 1 });
    const decoded = decodePearlBlock(Buffer.from(blocks[22]!, 'hex'), ACTIVE_TIP);
    expect(v2.proofcommitment).toBe(certificateCommitment(decoded.certificate!));
    const header = await rpc('getblockheader', [ACTIVE_TIP]);
    expect(Object.keys(header)).toEqual(Object.keys(pearldSimnetSample('getblockheader_verbose.json')));
    expect(await rpc('getblockheader', [ACTIVE_TIP, false])).toHaveLength(216);
    const txid = v2.rawtx[0].txid;
    expect(await rpc('getrawtransaction', [txid, 1])).toEqual(v2.rawtx[0]);
    expect(await rpc('getrawmempool')).toEqual([]);
    expect((await rpc('help')).split('\n')).toContain('getchaintips');
  });

  it('refuses blocks given before their parent', () => {
    expect(() => createReplayDevnet({ blocks: [blocks[0]!, blocks[2]!] })).toThrow(/before its parent/);
    expect(() => createReplayDevnet({ blocks, revealed: 0 })).toThrow(RangeError);
  });
});
