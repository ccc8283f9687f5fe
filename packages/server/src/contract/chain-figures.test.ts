import { checkInvariants } from '@explorer/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainFixture, createChainFixture } from './fixture.js';

const sats = (coins: number) => Math.round(coins * 1e8);

async function allPages<T>(f: ChainFixture, path: string, member: string): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const r = await f.get(`${path}${sep}limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    expect(r.status).toBe(200);
    out.push(...r.body[member]);
    cursor = r.body.pagination.nextCursor;
  } while (cursor);
  return out;
}

/** Compares what the API serves with what the devnet says about its own best chain. */
async function expectApiEqualsChain(f: ChainFixture) {
  const truth = f.devnet.truth();
  const blocks = await allPages<any>(f, '/v1/blocks', 'blocks');
  expect(blocks.length).toBe(truth.height + 1);
  expect(blocks.reduce((n, b) => n + b.txCount, 0)).toBe(truth.txCount);

  const byPool: Record<string, number> = {};
  const byMiner: Record<string, number> = {};
  for (const b of blocks) {
    byPool[b.pool.id] = (byPool[b.pool.id] ?? 0) + 1;
    if (b.miner.address) byMiner[b.miner.address] = (byMiner[b.miner.address] ?? 0) + 1;
  }
  expect(byPool).toEqual(truth.blocksByPool);
  expect(byMiner).toEqual(truth.blocksByMiner);
  expect(blocks.reduce((n, b) => n + b.subsidy, 0)).toBe(Number(truth.emitted));
  expect(blocks.reduce((n, b) => n + b.fees, 0)).toBe(Number(truth.fees));
  const certs = blocks.filter((b) => b.certificate);
  expect(certs.length).toBe(truth.certificates.total);
  expect(certs.filter((b) => b.certificate.isMoE).length).toBe(truth.certificates.moe);

  // Every block's header fields, reward and fees against getblock 2.
  for (const b of blocks.filter((x) => x.height % 7 === 0 || x.height === truth.height)) {
    const hash = await f.node.call<string>('getblockhash', [b.height]);
    const node = await f.node.call<any>('getblock', [hash, 2]);
    expect(b).toMatchObject({
      hash: node.hash,
      previousHash: node.previousblockhash ?? null,
      time: node.time,
      medianTime: node.mediantime,
      txCount: node.nTx,
      size: node.size,
      strippedSize: node.strippedsize,
      weight: node.weight,
      difficulty: node.difficulty,
      bits: node.bits,
      nonce: node.nonce,
      merkleRoot: node.merkleroot,
      chainwork: node.chainwork,
      reward: node.tx[0].vout.reduce((n: number, o: any) => n + sats(o.value), 0),
      fees: node.tx.slice(1).reduce((n: number, t: any) => n + sats(t.fee), 0),
    });
    if (node.certificate) {
      expect(b.certificate).toEqual({
        version: node.certificate.version,
        isMoE: node.certificate.isMoE,
        proofSize: node.certificate.proof.length / 2,
        proofCommitment: node.certificate.proofCommitment,
      });
      const full = await f.get(`/v1/blocks/${b.height}/certificate?includeProof=true`);
      expect(full.body.certificate.proof).toBe(node.certificate.proof);
    } else expect(b.certificate).toBeNull();
    const raw = (await f.get(`/v1/blocks/${b.hash}/raw`)).body.raw;
    const { confirmations: _c, nextblockhash: _n, tx, certificate, ...header } = node;
    expect(raw).toMatchObject({ ...header, tx: tx.map((t: any) => t.txid) });
    for (const t of tx.slice(0, 3)) {
      const api = (await f.get(`/v1/txs/${t.txid}`)).body.tx;
      expect(api).toMatchObject({
        txid: t.txid,
        blockHeight: b.height,
        size: t.size,
        vsize: t.vsize,
        weight: t.weight,
      });
      expect(api.fee).toBe(t.vin[0].coinbase ? 0 : sats(t.fee));
      expect(api.valueOut).toBe(t.vout.reduce((n: number, o: any) => n + sats(o.value), 0));
      expect((await f.get(`/v1/txs/${t.txid}/raw`)).body.raw).toEqual(t);
    }
  }

  // Balances of the busy and the labelled addresses, and their UTXO sets.
  const labelled = f.definitions.labels.map((l) => l.address);
  for (const address of [...truth.busyAddresses, ...labelled]) {
    const want = truth.balances(address);
    const got = (await f.get(`/v1/addresses/${address}`)).body.address;
    expect({
      address,
      balance: got.balance,
      received: got.received,
      sent: got.sent,
      txCount: got.txCount,
      utxos: got.utxoCount,
    }).toEqual({
      address,
      balance: Number(want.balance),
      received: Number(want.received),
      sent: Number(want.sent),
      txCount: want.txCount,
      utxos: want.utxos,
    });
    if (want.utxos > 0) {
      const utxos = await allPages<any>(f, `/v1/addresses/${address}/utxos`, 'utxos');
      expect(utxos.reduce((n, u) => n + u.value, 0)).toBe(Number(want.balance));
    }
  }
  await expectAnalyticsEqualChain(f, blocks);
  expect(await checkInvariants(f.db.sql)).toEqual([]);
}

/** Miners, pools, supply and certificate analytics against the devnet's own figures. */
async function expectAnalyticsEqualChain(f: ChainFixture, blocks: any[]) {
  const truth = f.devnet.truth();
  const miners = await allPages<any>(f, '/v1/miners/top', 'miners');
  expect(Object.fromEntries(miners.map((m) => [m.address, m.blocks]))).toEqual(truth.blocksByMiner);
  for (let i = 1; i < miners.length; i++)
    expect(miners[i - 1].blocks).toBeGreaterThanOrEqual(miners[i].blocks);
  const top = miners[0];
  const miner = (await f.get(`/v1/miners/${top.address}?limit=100`)).body;
  expect(miner.miner).toMatchObject({
    blocks: truth.blocksByMiner[top.address],
    share: top.blocks / (truth.height + 1),
  });
  const mined = await allPages<any>(f, `/v1/miners/${top.address}`, 'blocks');
  expect(mined.map((b) => b.height)).toEqual(
    blocks.filter((b) => b.miner.address === top.address).map((b) => b.height),
  );
  const minerDays = (await f.get(`/v1/miners/${top.address}/blocks-over-time`)).body.days;
  expect(minerDays.reduce((n: number, d: any) => n + d.blocks, 0)).toBe(top.blocks);

  const all = (await f.get('/v1/pools/top?window=all&limit=100')).body;
  expect(Object.fromEntries(all.pools.map((p: any) => [p.id, p.blocks]))).toEqual(truth.blocksByPool);
  expect(all.blocks).toBe(truth.height + 1);
  expect(all.pools.reduce((n: number, p: any) => n + p.share, 0)).toBeCloseTo(1, 9);
  const tipTime = blocks[0].time;
  const day24: Record<string, number> = {};
  for (const b of blocks.filter((x) => x.time > tipTime - 86_400))
    day24[b.pool.id] = (day24[b.pool.id] ?? 0) + 1;
  const w24 = (await f.get('/v1/pools/top?window=24h&limit=100')).body;
  expect(Object.fromEntries(w24.pools.map((p: any) => [p.id, p.blocks]))).toEqual(day24);
  const analytics = (await f.get('/v1/analytics/pools')).body.pools;
  expect(analytics.windows['24h']).toEqual({ blocks: w24.blocks, pools: w24.pools });
  for (const [id, n] of Object.entries(truth.blocksByPool)) {
    const pool = (await f.get(`/v1/pools/${id}`)).body.pool;
    expect({ id, blocks: pool.blocks }).toEqual({ id, blocks: n });
    const days = (await f.get(`/v1/pools/${id}/blocks-over-time`)).body.days;
    expect(days.reduce((m: number, d: any) => m + d.blocks, 0)).toBe(n);
    const payouts = await allPages<any>(f, `/v1/pools/${id}/payout-outputs`, 'outputs');
    const poolBlocks = blocks.filter((b) => b.pool.id === id);
    expect(new Set(payouts.map((o) => o.blockHeight)).size).toBe(poolBlocks.length);
  }

  const supply = (await f.get('/v1/analytics/supply')).body.supply;
  expect(supply).toMatchObject({
    height: truth.height,
    blockHash: truth.tipHash,
    emitted: Number(truth.emitted),
    fees: Number(truth.fees),
    unspendable: {
      opReturn: Number(truth.opReturnValue),
      burnAddresses: Number(truth.burnAddressBalance),
      total: Number(truth.opReturnValue) + Number(truth.burnAddressBalance),
    },
    circulating: Number(truth.emitted) - Number(truth.opReturnValue) - Number(truth.burnAddressBalance),
  });

  const pouw = (await f.get('/v1/analytics/pouw')).body.pouw;
  const c = truth.certificates;
  expect(pouw).toMatchObject({
    blocks: truth.height + 1,
    certifiedBlocks: c.total,
    moe: c.moe,
    proofSize: { min: c.proofBytes.min, max: c.proofBytes.max, avg: c.proofBytes.sum / c.total },
  });
  expect(pouw.certifiedShare).toBeCloseTo(c.total / (truth.height + 1), 12);
  for (const v of ['1', '2', '3', '4']) expect(pouw.byVersion[v]).toBe(c.byVersion[v] ?? 0);
  expect(pouw.latest[0].height).toBe(blocks.find((b) => b.certificate)!.height);

  const network = (await f.get('/v1/analytics/network')).body.network;
  expect(network).toMatchObject({ height: truth.height, difficulty: blocks[0].difficulty, tipTime });
  expect(network.hashrate['1d'].blocks).toBe(blocks.filter((b) => b.time > tipTime - 86_400).length);
}

describe('figures served equal the chain (pglite)', () => {
  let f: ChainFixture;
  beforeAll(async () => {
    f = await createChainFixture('pglite', { seed: 'figures', blocks: 150 });
  });
  afterAll(async () => {
    await f?.close();
  });

  it('after the initial sync', async () => {
    await expectApiEqualsChain(f);
  });

  it('after reorgs of depth 1 and 6 with moved transactions, and new blocks', async () => {
    f.devnet.reorg(1);
    await f.sync();
    f.devnet.reorg(6, { extra: 2, moveTxs: true });
    f.devnet.mine(2);
    await f.sync();
    expect((await f.get('/v1/status')).body.status.indexer.reorgs).toBe(2);
    await expectApiEqualsChain(f);
  });
});
