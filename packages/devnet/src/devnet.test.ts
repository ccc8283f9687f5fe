import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditChain } from './audit.js';
import { addressToScript } from './chain/script.js';
import { createDevnet, type Devnet } from './index.js';

async function chainFingerprint(d: Devnet): Promise<string> {
  const h = createHash('sha256');
  for (let i = 0; i <= d.height(); i++)
    h.update((await d.rpc('getblock', [await d.rpc('getblockhash', [i]), 0])) as string);
  return h.digest('hex');
}

const small = { blocks: 120, coinbaseMaturity: 10, proofSize: [200, 2000] as [number, number] };

describe('determinism', () => {
  it('same seed and options give a byte-identical chain; another seed does not', async () => {
    const a = await chainFingerprint(createDevnet({ ...small, seed: 'x' }));
    const b = await chainFingerprint(createDevnet({ ...small, seed: 'x' }));
    const c = await chainFingerprint(createDevnet({ ...small, seed: 'y' }));
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });
});

describe('a generated chain', () => {
  let d: Devnet;
  beforeAll(() => {
    d = createDevnet({
      blocks: 260,
      coinbaseMaturity: 20,
      halvingInterval: 100,
      retargetInterval: 50,
      proofSize: [100, 3000],
    });
  });

  it('renders getblock verbosity 1 and 2 with Core keys and types', async () => {
    let h = 200;
    while (((await d.rpc('getblock', [await d.rpc('getblockhash', [h])])) as { nTx: number }).nTx < 2) h--;
    const hash = (await d.rpc('getblockhash', [h])) as string;
    const b1 = (await d.rpc('getblock', [hash])) as Record<string, unknown>;
    for (const [k, t] of Object.entries({
      hash: 'string',
      confirmations: 'number',
      size: 'number',
      strippedsize: 'number',
      weight: 'number',
      height: 'number',
      version: 'number',
      versionHex: 'string',
      merkleroot: 'string',
      time: 'number',
      mediantime: 'number',
      nonce: 'number',
      bits: 'string',
      difficulty: 'number',
      chainwork: 'string',
      nTx: 'number',
      previousblockhash: 'string',
      nextblockhash: 'string',
    }))
      expect(typeof b1[k], k).toBe(t);
    expect(b1.confirmations).toBe(d.height() - h + 1);
    expect((b1.tx as unknown[]).every((t) => typeof t === 'string')).toBe(true);
    expect(b1.chainwork).toMatch(/^[0-9a-f]{64}$/);
    const b2 = (await d.rpc('getblock', [hash, 2])) as { tx: Record<string, unknown>[] };
    const tx = b2.tx[1] as Record<string, unknown>;
    for (const k of [
      'txid',
      'hash',
      'version',
      'size',
      'vsize',
      'weight',
      'locktime',
      'vin',
      'vout',
      'hex',
      'fee',
    ])
      expect(tx, k).toHaveProperty(k);
    expect(b2.tx[0]).not.toHaveProperty('fee');
    const header = (await d.rpc('getblockheader', [hash, false])) as string;
    expect(header).toHaveLength(160);
    expect(((await d.rpc('getblock', [hash, 0])) as string).startsWith(header)).toBe(true);
  });

  it('produces every output type with the right address shape', async () => {
    const seen = new Map<string, Record<string, unknown>>();
    for (let h = 100; h <= d.height() && seen.size < 7; h++) {
      const b = (await d.rpc('getblock', [await d.rpc('getblockhash', [h]), 2])) as {
        tx: { vout: { scriptPubKey: Record<string, unknown> }[] }[];
      };
      for (const t of b.tx) for (const o of t.vout) seen.set(o.scriptPubKey.type as string, o.scriptPubKey);
    }
    expect([...seen.keys()].sort()).toEqual(
      [
        'nonstandard',
        'nulldata',
        'pubkeyhash',
        'scripthash',
        'witness_v0_keyhash',
        'witness_v0_scripthash',
        'witness_v1_taproot',
      ].sort(),
    );
    for (const [type, spk] of seen) {
      if (type === 'nulldata' || type === 'nonstandard') expect(spk).not.toHaveProperty('address');
      else expect(addressToScript(spk.address as string)?.toString('hex')).toBe(spk.hex);
    }
  });

  it('has accounting that an independent RPC walk reproduces exactly', async () => {
    const defs = d.definitions();
    const audit = await auditChain((m, p) => d.rpc(m, p), {
      pools: defs.pools,
      burnAddresses: defs.labels.filter((l) => l.kind === 'burn').map((l) => l.address),
      halvingInterval: d.options.halvingInterval,
    });
    const { balances, busyAddresses, ...truth } = d.truth();
    expect(audit).toEqual(truth);
    expect(Number(truth.utxoValue)).toBe(Number(truth.emitted) - Number(truth.opReturnValue));
    expect(Number(truth.burnAddressBalance)).toBeGreaterThan(0);
    expect(Number(truth.opReturnValue)).toBeGreaterThan(0);
    expect(Object.keys(truth.blocksByPool)).toContain('unknown');
    expect(truth.certificates.total).toBeGreaterThan(100);
    expect(busyAddresses).toHaveLength(3);
    const busy = balances(busyAddresses[0] as string);
    expect(busy.txCount).toBeGreaterThan(truth.txCount / 20);
    expect(BigInt(busy.received) - BigInt(busy.sent)).toBe(BigInt(busy.balance));
  });

  it('moves difficulty and halves the subsidy', async () => {
    const diffs = new Set<number>();
    for (const h of [0, 60, 120, 180, 240]) {
      const hdr = (await d.rpc('getblockheader', [await d.rpc('getblockhash', [h])])) as {
        difficulty: number;
      };
      diffs.add(hdr.difficulty);
    }
    expect(diffs.size).toBeGreaterThan(1);
    const cb = async (h: number) =>
      (
        (await d.rpc('getblock', [await d.rpc('getblockhash', [h]), 2])) as {
          tx: { vout: { value: number }[] }[];
        }
      ).tx[0];
    const empty = (await cb(50)) as { vout: { value: number }[] };
    expect(empty.vout.reduce((s, o) => s + o.value, 0)).toBeGreaterThanOrEqual(50);
    const later = (await cb(250)) as { vout: { value: number }[] };
    expect(later.vout.reduce((s, o) => s + o.value, 0)).toBeLessThan(13);
    expect((await d.rpc('getnetworkhashps')) as number).toBeGreaterThan(0);
  });

  it('keeps a mempool whose entries spend valid outputs and get mined', async () => {
    const txids = (await d.rpc('getrawmempool')) as string[];
    expect(txids.length).toBeGreaterThan(10);
    const verbose = (await d.rpc('getrawmempool', [true])) as Record<
      string,
      { vsize: number; fees: { base: number }; depends: string[] }
    >;
    expect(Object.keys(verbose).sort()).toEqual([...txids].sort());
    const info = (await d.rpc('getmempoolinfo')) as { size: number; bytes: number; total_fee: number };
    expect(info.size).toBe(txids.length);
    expect(info.bytes).toBe(Object.values(verbose).reduce((s, e) => s + e.vsize, 0));
    expect(Math.round(info.total_fee * 1e8)).toBe(
      Object.values(verbose).reduce((s, e) => s + Math.round(e.fees.base * 1e8), 0),
    );
    for (const txid of txids.slice(0, 5)) {
      const tx = (await d.rpc('getrawtransaction', [txid, true])) as {
        vin: { txid: string; vout: number }[];
        blockhash?: string;
      };
      expect(tx.blockhash).toBeUndefined();
      for (const v of tx.vin) {
        if (verbose[v.txid]) continue;
        const prev = (await d.rpc('getrawtransaction', [v.txid, true])) as { confirmations: number };
        expect(prev.confirmations).toBeGreaterThan(0);
      }
    }
    const first = txids[0] as string;
    const [hash] = d.mine(1);
    const mined = (await d.rpc('getrawtransaction', [first, true])) as {
      blockhash: string;
      confirmations: number;
    };
    expect(mined.blockhash).toBe(hash);
    expect(mined.confirmations).toBe(1);
    expect((await d.rpc('getrawmempool')) as string[]).not.toContain(first);
  });
});

describe('generation cost', () => {
  it('grows about linearly with the number of blocks', () => {
    // CPU time (user + system) of this process rather than wall clock, so time spent descheduled
    // on a loaded machine does not count; the minimum of interleaved runs discards GC and other noise.
    const cpuMs = (blocks: number) => {
      const before = process.cpuUsage();
      const d = createDevnet({ blocks, proofSize: [200, 400], seed: 'size' });
      const used = process.cpuUsage(before);
      expect(d.truth().txCount).toBeGreaterThan(blocks * 5);
      return (used.user + used.system) / 1000;
    };
    cpuMs(200); // warm up the JIT
    const small: number[] = [];
    const large: number[] = [];
    for (let i = 0; i < 3; i++) {
      small.push(cpuMs(500));
      large.push(cpuMs(2000));
    }
    const a = Math.min(...small);
    const b = Math.min(...large);
    expect(b / a).toBeLessThan(4 * 2.5);
  }, 180_000);
});
