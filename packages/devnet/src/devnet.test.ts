import { createHash } from 'node:crypto';
import {
  certificateProblems,
  decodeDensePublicData,
  decodePearlBlock,
  PEARL_NETWORKS,
  pearlSubsidy,
  ratioDifficulty,
} from '@explorer/chain';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditChain } from './audit.js';
import { createDevnet, type Devnet, type DevnetOptions } from './index.js';

async function chainFingerprint(d: Devnet): Promise<string> {
  const h = createHash('sha256');
  for (let i = 0; i <= d.height(); i++)
    h.update((await d.rpc('getblock', [await d.rpc('getblockhash', [i]), 0])) as string);
  return h.digest('hex');
}

const small = { blocks: 120, coinbaseMaturity: 10, proofSize: [200, 2000] as [number, number] };
const at = async (d: Devnet, h: number) => (await d.rpc('getblockhash', [h])) as string;

async function expectAuditEqualsTruth(d: Devnet) {
  const defs = d.definitions();
  const audit = await auditChain((m, p) => d.rpc(m, p), {
    pools: defs.pools,
    burnAddresses: defs.labels.filter((l) => l.kind === 'burn').map((l) => l.address),
    halvingInterval: d.options.halvingInterval,
    dialect: d.options.dialect,
  });
  const { balances, busyAddresses, ...truth } = d.truth();
  expect(audit).toEqual(truth);
  expect(BigInt(truth.utxoValue)).toBe(
    BigInt(truth.emitted) - BigInt(truth.unclaimed) - BigInt(truth.opReturnValue),
  );
  expect(Number(truth.burnAddressBalance)).toBeGreaterThan(0);
  expect(Number(truth.opReturnValue)).toBeGreaterThan(0);
  expect(Object.keys(truth.blocksByPool)).toContain('unknown');
  expect(busyAddresses).toHaveLength(3);
  const busy = balances(busyAddresses[0] as string);
  expect(busy.txCount).toBeGreaterThan(truth.txCount / 20);
  expect(BigInt(busy.received) - BigInt(busy.sent)).toBe(BigInt(busy.balance));
  return truth;
}

describe('determinism', () => {
  for (const dialect of ['pearl', 'bitcoin'] as const) {
    it(`${dialect}: same seed and options give a byte-identical chain; another seed does not`, async () => {
      const a = await chainFingerprint(createDevnet({ ...small, dialect, seed: 'x' }));
      const b = await chainFingerprint(createDevnet({ ...small, dialect, seed: 'x' }));
      const c = await chainFingerprint(createDevnet({ ...small, dialect, seed: 'y' }));
      expect(a).toBe(b);
      expect(c).not.toBe(a);
    });
  }
});

describe('a generated Pearl chain (the default dialect)', () => {
  let d: Devnet;
  const opts: DevnetOptions = {
    blocks: 260,
    coinbaseMaturity: 20,
    proofSize: [100, 3000],
    certificateForks: { moe: 40, saltedSeed: 90, fp8: 150 },
  };
  beforeAll(() => {
    d = createDevnet(opts);
  });

  it('serves pearld’s getblock: certificate-first bytes, 108-byte headers, rawtx, no nonce or chainwork', async () => {
    let h = 200;
    while (((await d.rpc('getblock', [await at(d, h)])) as { tx: string[] }).tx.length < 2) h--;
    const hash = await at(d, h);
    const b1 = (await d.rpc('getblock', [hash])) as Record<string, unknown>;
    expect(Object.keys(b1)).toEqual([
      'hash',
      'confirmations',
      'size',
      'strippedsize',
      'vsize',
      'height',
      'version',
      'versionHex',
      'merkleroot',
      'tx',
      'time',
      'bits',
      'difficulty',
      'previousblockhash',
      'nextblockhash',
      'proofcommitment',
    ]);
    const b2 = (await d.rpc('getblock', [hash, 2])) as Record<string, unknown>;
    expect(b2).not.toHaveProperty('tx');
    const rawtx = b2.rawtx as Record<string, unknown>[];
    expect(rawtx.map((t) => t.txid)).toEqual(b1.tx);
    expect(rawtx[1]).not.toHaveProperty('fee');
    expect(rawtx[1]).not.toHaveProperty('weight');
    expect(Object.keys((rawtx[0]!.vin as object[])[0]!)).toEqual(['coinbase', 'sequence', 'witness']);
    const raw = Buffer.from((await d.rpc('getblock', [hash, 0])) as string, 'hex');
    const block = decodePearlBlock(raw, hash);
    expect(raw.length).toBe(b1.size);
    expect(block.strippedSize).toBe(b1.strippedsize);
    expect(block.vsize).toBe(b1.vsize);
    expect(block.header.proofCommitment).toBe(b1.proofcommitment);
    expect(certificateProblems(block.certificate!, block.header)).toEqual([]);
    const header = (await d.rpc('getblockheader', [hash, false])) as string;
    expect(header).toHaveLength(216);
    expect(
      raw.subarray(block.certificateBytes.length, block.certificateBytes.length + 108).toString('hex'),
    ).toBe(header);
    expect(b1.difficulty).toBe(
      ratioDifficulty(PEARL_NETWORKS.regtest.powLimitBits, Number.parseInt(b1.bits as string, 16)),
    );
    const genesis = (await d.rpc('getblock', [await at(d, 0)])) as Record<string, unknown>;
    expect(genesis.previousblockhash).toBe('0'.repeat(64));
    expect(((await d.rpc('getblockchaininfo')) as { chain: string }).chain).toBe('regtest');
  });

  it('carries certificate versions 1–4 across their fork heights, MoE jobs, v4 ancestors, verified commitments', async () => {
    const seen = new Map<number, number>();
    let moe = 0;
    let ancestors = 0;
    for (let h = 1; h <= d.height(); h += 3) {
      const hash = await at(d, h);
      const block = decodePearlBlock(
        Buffer.from((await d.rpc('getblock', [hash, 0])) as string, 'hex'),
        hash,
      );
      const c = block.certificate!;
      const f = opts.certificateForks!;
      expect(c.version, `height ${h}`).toBe(h >= f.fp8 ? 4 : h >= f.saltedSeed ? 3 : h >= f.moe ? 2 : 1);
      expect(certificateProblems(c, block.header)).toEqual([]);
      expect(c.blockHash).toBe(hash);
      seen.set(c.version, (seen.get(c.version) ?? 0) + 1);
      if (c.version <= 3) {
        const pd = decodeDensePublicData(c.publicData!);
        if (pd.moe) moe++;
        expect(pd.config.mmaType).toBe(0);
        expect(pd.m * pd.n).toBeGreaterThan(0);
      } else {
        ancestors += c.ancestorHeaders.length;
        expect(Buffer.from(c.publicData!.subarray(0, 108)).toString('hex')).toBe(
          (await d.rpc('getblockheader', [await at(d, h - 1), false])) as string,
        );
      }
    }
    expect([...seen.keys()].sort()).toEqual([1, 2, 3, 4]);
    expect(moe).toBeGreaterThan(3);
    expect(ancestors).toBeGreaterThan(10);
    const truth = d.truth();
    expect(truth.certificates.total).toBe(d.height() + 1);
    expect(truth.certificates.firstHeight).toEqual({ '1': 0, '2': 40, '3': 90, '4': 150 });
    expect(truth.certificates.commitmentFailures).toBe(0);
  });

  it('produces P2TR, P2MR and OP_RETURN outputs only, on rprl addresses', async () => {
    const seen = new Map<string, Record<string, unknown>>();
    for (let h = 100; h <= d.height(); h++) {
      const b = (await d.rpc('getblock', [await at(d, h), 2])) as {
        rawtx: { vout: { scriptPubKey: Record<string, unknown> }[] }[];
      };
      for (const t of b.rawtx)
        for (const o of t.vout) seen.set(o.scriptPubKey.type as string, o.scriptPubKey);
    }
    expect([...seen.keys()].sort()).toEqual(['nulldata', 'witness_v1_taproot', 'witness_v2_merkleroot']);
    expect(seen.get('witness_v1_taproot')?.address).toMatch(/^rprl1p/);
    expect(seen.get('witness_v2_merkleroot')?.address).toMatch(/^rprl1z/);
    expect(seen.get('nulldata')).not.toHaveProperty('address');
  });

  it('emits by Pearl’s formula, some coinbases claiming less, and an independent RPC walk agrees', async () => {
    const truth = await expectAuditEqualsTruth(d);
    let emitted = 0n;
    for (let h = 1; h <= d.height(); h++) emitted += pearlSubsidy(h);
    expect(truth.emitted).toBe(String(emitted));
    expect(BigInt(truth.unclaimed)).toBeGreaterThan(0n);
    const genesis = (await d.rpc('getblock', [await at(d, 0), 2])) as {
      rawtx: { vout: { value: number }[] }[];
    };
    expect(genesis.rawtx[0]!.vout).toMatchObject([{ value: 0 }]);
  });

  it('keeps a mempool in pearld’s shapes, answers the calls pearld lacks as pearld does', async () => {
    const txids = (await d.rpc('getrawmempool')) as string[];
    expect(txids.length).toBeGreaterThan(10);
    const verbose = (await d.rpc('getrawmempool', [true])) as Record<string, Record<string, unknown>>;
    expect(Object.keys(verbose[txids[0]!]!)).toEqual(['size', 'vsize', 'fee', 'time', 'height', 'depends']);
    expect(Object.keys((await d.rpc('getmempoolinfo')) as object)).toEqual(['size', 'bytes', 'cap']);
    await expect(d.rpc('getmempoolentry', [txids[0]])).rejects.toMatchObject({
      code: -1,
      message: 'Command unimplemented',
    });
    for (const m of ['estimatesmartfee', 'getblockstats', 'gettxoutsetinfo', 'getchaintxstats'])
      await expect(d.rpc(m, [])).rejects.toMatchObject({ code: -32601 });
    expect(await d.rpc('version')).toHaveProperty('pearldjsonrpcapi');
    const tx = (await d.rpc('getrawtransaction', [txids[0], 1])) as Record<string, unknown>;
    expect(tx).not.toHaveProperty('blockhash');
    expect(tx.hex).toBe(await d.rpc('getrawtransaction', [txids[0]]));
  });
});

describe('a generated Bitcoin Core chain (dialect bitcoin)', () => {
  let d: Devnet;
  beforeAll(() => {
    d = createDevnet({
      dialect: 'bitcoin',
      blocks: 260,
      coinbaseMaturity: 20,
      halvingInterval: 100,
      retargetInterval: 50,
    });
  });

  it('renders getblock verbosity 1 and 2 with Core keys and types', async () => {
    let h = 200;
    while (((await d.rpc('getblock', [await at(d, h)])) as { nTx: number }).nTx < 2) h--;
    const hash = await at(d, h);
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
    expect(b1).not.toHaveProperty('certificate');
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
      const b = (await d.rpc('getblock', [await at(d, h), 2])) as {
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
      else expect(spk.address).toMatch(/^(dvt1|d|s)/);
    }
  });

  it('has accounting that an independent RPC walk reproduces exactly', async () => {
    const truth = await expectAuditEqualsTruth(d);
    expect(truth.unclaimed).toBe('0');
    expect(truth.certificates.total).toBe(0);
  });

  it('moves difficulty and halves the subsidy', async () => {
    const diffs = new Set<number>();
    for (const h of [0, 60, 120, 180, 240]) {
      const hdr = (await d.rpc('getblockheader', [await at(d, h)])) as { difficulty: number };
      diffs.add(hdr.difficulty);
    }
    expect(diffs.size).toBeGreaterThan(1);
    const cb = async (h: number) =>
      ((await d.rpc('getblock', [await at(d, h), 2])) as { tx: { vout: { value: number }[] }[] }).tx[0];
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

describe('transactions at a chosen fee rate', () => {
  it('pays ⌈rate × vsize⌉ (or a little more), shows it as the node does, and mines exactly the chosen ones', async () => {
    const d = createDevnet({ ...small, blocks: 30, coinbaseMaturity: 5, mempoolSize: 0, seed: 'rates' });
    expect(await d.rpc('getrawmempool')).toEqual([]);
    const txs = [...d.addTxs(2, { feeRate: 7.5 }), ...d.addTxs(1, { feeRate: 0 })];
    expect(txs).toHaveLength(3);
    const verbose = (await d.rpc('getrawmempool', [true])) as Record<string, { vsize: number; fee: number }>;
    txs.forEach((t, i) => {
      const rate = i < 2 ? 7.5 : 0;
      expect(t.fee).toBeGreaterThanOrEqual(Math.ceil(rate * t.vsize));
      // Only change too small to keep (under 546) goes to the fee on top.
      expect(t.fee).toBeLessThan(Math.ceil(rate * t.vsize) + 546);
      expect(verbose[t.txid]).toMatchObject({ vsize: t.vsize, fee: t.fee / 1e8 });
    });
    const over = (await d.rpc('devnet_addtxs', [2, 3])) as { txid: string; fee: number; vsize: number }[];
    expect(over).toHaveLength(2);
    expect(over[0]!.fee).toBeGreaterThanOrEqual(Math.ceil(3 * over[0]!.vsize));
    await expect(d.rpc('devnet_addtxs', [1, -1])).rejects.toMatchObject({ code: -8 });
    expect(() => d.addTxs(1, { feeRate: Number.NaN })).toThrow(RangeError);

    const hash = d.mineTxs([txs[1]!.txid]);
    const mined = (await d.rpc('getrawtransaction', [txs[1]!.txid, true])) as { blockhash?: string };
    expect(mined.blockhash).toBe(hash);
    // This seed's second tx spends nothing unconfirmed: the block took it alone.
    const left = (await d.rpc('getrawmempool')) as string[];
    expect([...left].sort()).toEqual([txs[0]!, txs[2]!, ...over].map((t) => t.txid).sort());
    expect(() => d.mineTxs(['0'.repeat(64)])).toThrow(/not in the mempool/);
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
      small.push(cpuMs(250));
      large.push(cpuMs(1000));
    }
    const a = Math.min(...small);
    const b = Math.min(...large);
    expect(b / a).toBeLessThan(4 * 2.5);
  });
});
