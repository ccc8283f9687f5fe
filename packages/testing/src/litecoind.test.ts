import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Litecoind, litecoindAvailable, MWEB_ACTIVATION_HEIGHT, startLitecoind } from './litecoind.js';

const unavailable = litecoindAvailable();
if (unavailable) console.log(`litecoind tests skipped: ${unavailable}`);

interface ScanResult {
  success: boolean;
  unspents: { txid: string; vout: number; amount: number; height: number }[];
  total_amount: number;
}

interface RawTx {
  vout: { n: number; value: number; scriptPubKey: { type: string; addresses?: string[] } }[];
}

describe.skipIf(unavailable !== null)('litecoind regtest node', () => {
  let node: Litecoind;

  beforeAll(async () => {
    node = await startLitecoind();
  });

  afterAll(async () => {
    await node?.stop();
  });

  it('mines, sends to every address type and keeps mining past MWEB activation', async () => {
    const info = await node.rpc<{ chain: string; blocks: number }>('getblockchaininfo');
    expect(info).toMatchObject({ chain: 'regtest', blocks: 0 });
    expect(node.rpcUrl).toMatch(/^http:\/\/[^:]+:[^@]+@127\.0\.0\.1:\d+\/$/);

    expect(await node.mine(101)).toHaveLength(101);
    await node.prepareMweb();

    const types = ['legacy', 'p2sh-segwit', 'bech32', 'mweb'] as const;
    const addrs = {} as Record<(typeof types)[number], string>;
    for (const type of types) addrs[type] = await node.newAddress(type);
    expect(addrs.mweb).toMatch(/^tmweb1/);
    expect(addrs.bech32).toMatch(/^rltc1/);
    const amounts = { legacy: 1.5, 'p2sh-segwit': 2.25, bech32: 3, mweb: 0.5 };
    for (const type of types) {
      const txid = await node.send(addrs[type], amounts[type]);
      expect(txid).toMatch(/^[0-9a-f]{64}$/);
      if (type === 'mweb') continue;
      // The addresses belong to the node's own wallet: lock the outputs so later sends cannot spend them.
      const tx = await node.rpc<RawTx>('getrawtransaction', txid, true);
      const out = tx.vout.find((o) => o.scriptPubKey.addresses?.includes(addrs[type]));
      expect(out).toBeDefined();
      await node.rpc('lockunspent', false, [{ txid, vout: out?.n }]);
    }

    const height = await node.rpc<number>('getblockcount');
    const hashes = await node.mine(441 - height);
    expect(hashes).toHaveLength(441 - height);
    const tip = await node.rpc<number>('getblockcount');
    expect(tip).toBeGreaterThan(MWEB_ACTIVATION_HEIGHT);
    expect(tip).toBe(441);

    // The activation block carries the MWEB extension block.
    const activation = await node.rpc<{ mweb?: unknown }>(
      'getblock',
      await node.rpc<string>('getblockhash', MWEB_ACTIVATION_HEIGHT),
      1,
    );
    expect(activation.mweb).toBeDefined();

    for (const type of ['legacy', 'p2sh-segwit', 'bech32'] as const) {
      const scan = await node.rpc<ScanResult>('scantxoutset', 'start', [`addr(${addrs[type]})`]);
      expect(scan.success).toBe(true);
      expect(scan.total_amount).toBeCloseTo(amounts[type], 8);
      expect(scan.unspents).toHaveLength(1);
    }
    // MWEB coins are not transparent outputs: scantxoutset sees nothing, the wallet does
    // (getreceivedbyaddress answers 0 for MWEB addresses in 0.21.2.1; listunspent is right).
    const mwebScan = await node.rpc<ScanResult>('scantxoutset', 'start', [`addr(${addrs.mweb})`]);
    expect(mwebScan.unspents).toHaveLength(0);
    const mwebCoins = await node.rpc<{ amount: number }[]>('listunspent', 1, 9_999_999, [addrs.mweb]);
    expect(mwebCoins.map((c) => c.amount)).toEqual([amounts.mweb]);

    // Still mining after activation.
    expect(await node.mine(2)).toHaveLength(2);
  });

  it('makes a reorg with invalidateblock; the stale block reports confirmations -1', async () => {
    const stale = await node.rpc<string>('getbestblockhash');
    const height = await node.rpc<number>('getblockcount');
    await node.rpc('invalidateblock', stale);
    // mine() pays a fresh address each call, so the replacement block cannot equal the invalidated one.
    const fork = await node.mine(2);
    expect(fork).toHaveLength(2);
    expect(await node.rpc<number>('getblockcount')).toBe(height + 1);
    expect(await node.rpc('getblockhash', height)).not.toBe(stale);
    const block = await node.rpc<{ confirmations: number; height: number }>('getblock', stale, 1);
    expect(block).toMatchObject({ confirmations: -1, height });
  });
});
