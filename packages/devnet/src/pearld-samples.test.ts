import { decodePearlBlock } from '@explorer/chain';
import { pearldSimnetSample } from '@explorer/test-vectors';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDevnet, type Devnet } from './devnet.js';
import type { RpcError } from './rpc-error.js';

// The devnet's answers, call by call, against what a real pearld 1.1.5 answered on simnet: the same keys in the
// same order, the same JSON types, the same number formats. Deliberate differences (docs/devnet.md) are values,
// not shapes: the chain is named `regtest` (simnet shares its genesis and addresses); `help` lists the devnet's
// own calls and only the calls it answers, and `help <call>` gives the usage line only; getchaintips never says
// `invalid` (the devnet has no invalidateblock); no wallet calls (devnet_addtxs plays the wallet);
// searchrawtransactions has no vinextra/filteraddrs; difficulties are rounded to 8 decimals as btcd rounds them
// (the samples, all at the pow limit, show only 1).

/** For each path (array indices collapsed to []), the key lists of its objects and the types of its leaves. */
function shapes(value: unknown, path = '$', out = new Map<string, Set<string>>()): Map<string, Set<string>> {
  const add = (sig: string) => {
    let set = out.get(path);
    if (!set) {
      set = new Set();
      out.set(path, set);
    }
    set.add(sig);
  };
  if (Array.isArray(value)) {
    add('array');
    for (const v of value) shapes(v, `${path}[]`, out);
  } else if (value !== null && typeof value === 'object') {
    add(`{${Object.keys(value).join(',')}}`);
    for (const [k, v] of Object.entries(value)) shapes(v, `${path}.${k}`, out);
  } else add(value === null ? 'null' : typeof value);
  return out;
}

/** Every shape the devnet gives at a path the real node also filled is one the real node gave there. */
function expectSameShapes(
  devnet: unknown,
  real: unknown,
  paths: { cover?: string[]; also?: unknown[] } = {},
): void {
  const d = shapes(devnet);
  const r = shapes(real);
  const primary = shapes(real);
  // Other answers of the real node with the same layout widen what it is known to say.
  for (const other of paths.also ?? []) {
    for (const [path, sigs] of shapes(other))
      for (const sig of sigs) r.get(path)?.add(sig) ?? r.set(path, new Set([sig]));
  }
  for (const [path, sigs] of d) {
    const want = r.get(path);
    if (!want) continue;
    for (const sig of sigs) expect(want, `${path}: ${sig}`).toContain(sig);
  }
  // The real node's key lists at these paths all occur in the devnet's answer too.
  for (const path of paths.cover ?? ['$']) {
    for (const sig of primary.get(path) ?? []) expect(d.get(path), `${path}: ${sig}`).toContain(sig);
  }
}

/** Amounts and difficulties as pearld prints them: JSON numbers with at most 8 decimals. */
function expectEightDecimals(values: number[]): void {
  for (const v of values) expect(Math.round(v * 1e8) / 1e8, String(v)).toBe(v);
}

const amounts = (tx: any): number[] => tx.vout.map((o: any) => o.value);

describe("the devnet's answers against a real pearld's (simnet samples)", () => {
  let devnet: Devnet;
  let withTxs: string;
  let empty: string;
  let genesis: string;
  let mempool: string[];
  const rpc = (method: string, params: unknown[] = []) => devnet.rpc(method, params) as Promise<any>;

  beforeAll(async () => {
    devnet = createDevnet({ seed: 'samples', blocks: 24, coinbaseMaturity: 4, proofSize: [200, 400] });
    devnet.mine(1);
    devnet.reorg(2);
    genesis = await rpc('getblockhash', [0]);
    empty = devnet.mineTxs([]);
    // The real samples are of the tip: so is the devnet's block with transactions.
    withTxs = devnet.mineTxs(devnet.addTxs(5).map((t) => t.txid));
    devnet.addTxs(5);
    mempool = await rpc('getrawmempool');
  });

  it('getblock 0: the block bytes in hex, certificate first, decodable as the real ones are', async () => {
    for (const real of ['getblock_h20_v0.hex', 'getblock_h131_5tx_v0.hex', 'getblock_genesis_v0.hex']) {
      const hex = String(pearldSimnetSample(real)).trim();
      expect(hex).toMatch(/^[0-9a-f]+$/);
    }
    const hex = await rpc('getblock', [withTxs, 0]);
    expect(hex).toMatch(/^[0-9a-f]+$/);
    expect(decodePearlBlock(Buffer.from(hex, 'hex'), withTxs).header.hash).toBe(withTxs);
  });

  it('getblock 1: same keys, order and types', async () => {
    const real = pearldSimnetSample('getblock_h131_5tx_v1.json');
    expectSameShapes(await rpc('getblock', [withTxs, 1]), real);
  });

  it('getblock 2: same keys, order and types of the block and of every rawtx entry, vin and vout', async () => {
    const cover = ['$', '$.rawtx[]', '$.rawtx[].vin[]', '$.rawtx[].vout[].scriptPubKey'];
    const real = pearldSimnetSample('getblock_h131_5tx_v2.json');
    const mine = await rpc('getblock', [withTxs, 2]);
    expectSameShapes(mine, real, { cover });
    // Below the tip the block names its child, where the real genesis (not a tip) has it.
    expectSameShapes(await rpc('getblock', [empty, 2]), pearldSimnetSample('getblock_h20_v2.json'), {
      cover: ['$.rawtx[]', '$.rawtx[].vin[]'],
      also: [pearldSimnetSample('getblock_genesis_v2.json')],
    });
    expectSameShapes(await rpc('getblock', [genesis, 2]), pearldSimnetSample('getblock_genesis_v2.json'), {
      cover: ['$', '$.rawtx[]', '$.rawtx[].vin[]'],
    });
    expectEightDecimals([mine.difficulty, ...mine.rawtx.flatMap(amounts)]);
    expect(mine.bits).toMatch(/^[1-9a-f][0-9a-f]{0,7}$/);
    expect(real.bits).toMatch(/^[1-9a-f][0-9a-f]{0,7}$/);
  });

  it('getblockheader: same keys, order and types', async () => {
    const real = pearldSimnetSample('getblockheader_verbose.json');
    expectSameShapes(await rpc('getblockheader', [withTxs, true]), real);
    // Genesis names an all-zero parent, as the real node's getblock of genesis does.
    const genesisHeader = await rpc('getblockheader', [genesis, true]);
    const genesisBlock = pearldSimnetSample('getblock_genesis_v2.json');
    expect(genesisHeader.previousblockhash).toBe(genesisBlock.previousblockhash);
    expect(Object.keys(genesisHeader)).toEqual(
      Object.keys(genesisBlock).filter((k) => k in genesisHeader || !/size|rawtx/.test(k)),
    );
  });

  it('getblockchaininfo: same keys, order and types, bip9_softforks included', async () => {
    const mine = await rpc('getblockchaininfo');
    const cover = ['$', '$.bip9_softforks', '$.bip9_softforks.dummy'];
    expectSameShapes(mine, pearldSimnetSample('getblockchaininfo_h132.json'), { cover });
    expectSameShapes(mine, pearldSimnetSample('getblockchaininfo_h20.json'), { cover });
    expect(mine.headers).toBe(mine.blocks);
  });

  it('getchaintips: the active tip and the branch a reorganisation left, as after reconsiderblock', async () => {
    const real = pearldSimnetSample('getchaintips_after_reconsider.json');
    const mine = await rpc('getchaintips');
    expectSameShapes(mine, real, { cover: ['$[]'] });
    expect(mine.map((t: any) => t.status).sort()).toEqual(['active', 'valid-fork']);
    expect(mine.find((t: any) => t.status === 'active')).toMatchObject({
      hash: devnet.tipHash(),
      branchlen: 0,
    });
    expect(mine.find((t: any) => t.status === 'valid-fork').branchlen).toBe(2);
  });

  it('getrawmempool: txids; verbose: the same entry keys, the fee in PRL, entries in txid order', async () => {
    expectSameShapes(mempool, pearldSimnetSample('getrawmempool_5tx.json'), { cover: ['$[]'] });
    const verbose = await rpc('getrawmempool', [true]);
    const real = pearldSimnetSample('getrawmempool_verbose_5tx.json');
    const entry = (m: Record<string, unknown>) => Object.values(m);
    expectSameShapes(entry(verbose), entry(real), { cover: ['$[]'] });
    expect(Object.keys(real)).toEqual(Object.keys(real).sort());
    expect(Object.keys(verbose)).toEqual([...mempool].sort());
    expectEightDecimals(Object.values(verbose).map((e: any) => e.fee));
    devnet.mineTxs(mempool);
    expect(await rpc('getrawmempool')).toEqual(pearldSimnetSample('getrawmempool_empty.json'));
    expect(await rpc('getrawmempool', [true])).toEqual({});
  });

  it('getrawtransaction 1: confirmed and unconfirmed, same keys, order and types', async () => {
    const b = await rpc('getblock', [withTxs, 1]);
    const confirmed = await rpc('getrawtransaction', [b.tx[1], 1]);
    const cover = ['$', '$.vin[]'];
    expectSameShapes(confirmed, pearldSimnetSample('getrawtransaction_confirmed_v1.json'), { cover });
    const [unconfirmed] = devnet.addTxs(1);
    const mine = await rpc('getrawtransaction', [unconfirmed!.txid, 1]);
    expectSameShapes(mine, pearldSimnetSample('getrawtransaction_mempool_v1.json'), { cover });
    // The wallet's own transaction, as the node shows it before it is mined.
    expectSameShapes(mine, pearldSimnetSample('wallet_sendtoaddress_tx_v1.json'), {
      cover,
      also: [pearldSimnetSample('getrawtransaction_mempool_v1.json')],
    });
    expectEightDecimals([...amounts(confirmed), ...amounts(mine)]);
  });

  it('searchrawtransactions: P2TR as the address index lists it (empty hash and sizes), P2MR refused', async () => {
    const real = pearldSimnetSample('searchrawtransactions_p2tr.json');
    const coinbase = await rpc('getblock', [withTxs, 2]);
    const p2tr = coinbase.rawtx
      .flatMap((t: any) => t.vout)
      .find((o: any) => o.scriptPubKey.type === 'witness_v1_taproot').scriptPubKey.address;
    const mine = await rpc('searchrawtransactions', [p2tr]);
    // The real sample lists coinbases only; a spend's input is the one getrawtransaction shows.
    const spend = pearldSimnetSample('getrawtransaction_confirmed_v1.json');
    expectSameShapes(mine, real, { cover: ['$[]', '$[].vin[]'], also: [[{ vin: spend.vin }]] });
    expect(Object.keys(mine[0])).toEqual(Object.keys(real[0]));
    expect(mine[0]).toMatchObject({ hash: '', size: '', vsize: '' });
    const p2mr = coinbase.rawtx
      .concat((await rpc('getblock', [devnet.tipHash(), 2])).rawtx)
      .flatMap((t: any) => t.vout)
      .find((o: any) => o.scriptPubKey.type === 'witness_v2_merkleroot');
    const refused = String(pearldSimnetSample('searchrawtransactions_p2mr_ERROR.txt')).trim();
    const err = (await rpc('searchrawtransactions', [p2mr.scriptPubKey.address]).catch((e) => e)) as RpcError;
    expect(`${err.code}: ${err.message}`).toBe(refused);
  });

  it("help: one usage line per call, each as the real node's help gives it (the devnet's own calls aside)", async () => {
    const real = new Set(String(pearldSimnetSample('help.txt')).trim().split('\n'));
    const mine: string[] = (await rpc('help')).split('\n');
    expect(mine).toEqual([...mine].sort());
    const ours = mine.filter((l) => !l.startsWith('devnet_'));
    expect(ours.length).toBeGreaterThan(10);
    for (const line of ours) expect(real, line).toContain(line);
    expect(await rpc('help', ['getblock'])).toBe('getblock "hash" (verbosity=1)');
  });
});
