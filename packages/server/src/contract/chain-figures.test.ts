import {
  blockWork,
  certificateCommitment,
  decodeDensePublicData,
  decodePearlBlock,
  isMoePublicData,
  PEARL_EMISSION_FORMULA,
  PEARL_TOTAL_SUPPLY,
} from '@explorer/chain';
import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { checkInvariants } from '@explorer/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Coins as JSON-RPC prints them → base units, exactly as the indexer reads them. */
const units = (coins: number) => BigInt(Math.round(coins * 1e8));
const sum = (xs: Iterable<bigint>) => {
  let s = 0n;
  for (const x of xs) s += x;
  return s;
};

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
  const pearl = f.devnet.options.dialect === 'pearl';
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
  // Subsidies claimed = scheduled emission − what coinbases left unclaimed.
  expect(sum(blocks.map((b) => BigInt(b.subsidy)))).toBe(BigInt(truth.emitted) - BigInt(truth.unclaimed));
  expect(sum(blocks.map((b) => BigInt(b.fees)))).toBe(BigInt(truth.fees));
  const certs = blocks.filter((b) => b.certificate);
  expect(certs.length).toBe(truth.certificates.total);
  expect(certs.filter((b) => b.certificate.isMoE).length).toBe(truth.certificates.moe);
  if (pearl) expect(certs.length).toBe(blocks.length);

  // Header fields, reward and fees of every 7th block against the node; Pearl's against its block bytes.
  const ascending = [...blocks].reverse();
  let work = 0n;
  for (const b of ascending) {
    work += blockWork(Number.parseInt(b.bits, 16));
    if (b.height % 7 !== 0 && b.height !== truth.height) continue;
    const hash = await f.node.call<string>('getblockhash', [b.height]);
    const node = await f.node.call<any>('getblock', [hash, 2]);
    const txs: any[] = node.rawtx ?? node.tx;
    expect(b).toMatchObject({
      hash: node.hash,
      time: node.time,
      txCount: txs.length,
      size: node.size,
      strippedSize: node.strippedsize,
      difficulty: node.difficulty,
      bits: node.bits,
      merkleRoot: node.merkleroot,
      reward: String(sum(txs[0].vout.map((o: any) => units(o.value)))),
    });
    if (pearl) {
      // pearld reports neither: median time past and cumulative work are the indexer's own.
      const times = ascending.slice(Math.max(0, b.height - 10), b.height + 1).map((x) => x.time);
      expect(b.medianTime).toBe([...times].sort((x, y) => x - y)[Math.floor(times.length / 2)]);
      expect(BigInt(`0x${b.chainwork}`)).toBe(work);
      expect(b.nonce).toBeNull();
      expect(b.previousHash).toBe(b.height === 0 ? null : node.previousblockhash);
      const bytes = Buffer.from(await f.node.call<string>('getblock', [hash, 0]), 'hex');
      const decoded = decodePearlBlock(bytes, hash);
      const c = decoded.certificate!;
      expect(b.certificate).toEqual({
        version: c.version,
        readable: true,
        verified: b.height > 0,
        // Pearl's genesis literal commits to no certificate: a placeholder, not a failure.
        status: b.height > 0 ? 'verified' : 'placeholder',
        isMoE: isMoePublicData(c.version, c.publicData?.length ?? 0),
        proofSize: c.proof.length,
        proofCommitment: node.proofcommitment,
      });
      const full = (await f.get(`/v1/blocks/${b.height}/certificate?includeProof=true`)).body.certificate;
      expect(full).toMatchObject({
        version: c.version,
        readable: true,
        size: c.bytes.length,
        proofCommitment: decoded.header.proofCommitment,
        computedCommitment: certificateCommitment(c),
        commitmentValid: b.height > 0,
        status: b.height > 0 ? 'verified' : 'placeholder',
        namedBlockHash: hash,
        blockHashMatches: true,
        publicData: c.publicData ? Buffer.from(c.publicData).toString('hex') : null,
        proof: Buffer.from(c.proof).toString('hex'),
        ancestorHeaderCount: c.ancestorHeaders.length,
        raw: null,
      });
      if (b.height > 0) expect(full.problems).toEqual([]);
      if (c.version <= 3 && b.height > 0) {
        const pd = decodeDensePublicData(c.publicData!);
        expect(full.config).toMatchObject({
          m: pd.m,
          n: pd.n,
          commonDim: pd.config.commonDim,
          rank: pd.config.rank,
        });
      } else if (c.version === 4) {
        expect(full.config).toBeNull();
        expect(full.configNote).toMatch(/not certain/);
      }
    } else {
      expect(b).toMatchObject({
        previousHash: node.previousblockhash ?? null,
        medianTime: node.mediantime,
        weight: node.weight,
        nonce: node.nonce,
        chainwork: node.chainwork,
        fees: String(sum(txs.slice(1).map((t: any) => units(t.fee)))),
      });
      expect(b.certificate).toBeNull();
      expect((await f.get(`/v1/blocks/${b.height}/certificate`)).status).toBe(404);
    }
    const raw = (await f.get(`/v1/blocks/${b.hash}/raw`)).body.raw;
    const { confirmations: _c, nextblockhash: _n, tx: _tx, rawtx: _rawtx, ...header } = node;
    expect(raw).toMatchObject({ ...header, tx: txs.map((t: any) => t.txid) });
    for (const t of txs.slice(0, 3)) {
      const api = (await f.get(`/v1/txs/${t.txid}`)).body.tx;
      expect(api).toMatchObject({ txid: t.txid, blockHeight: b.height, size: t.size, vsize: t.vsize });
      if (!pearl) expect(api.fee).toBe(t.vin[0].coinbase ? '0' : String(units(t.fee)));
      expect(api.valueOut).toBe(String(sum(t.vout.map((o: any) => units(o.value)))));
      const { confirmations: _tc, ...stored } = t;
      expect((await f.get(`/v1/txs/${t.txid}/raw`)).body.raw).toEqual(stored);
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
    }).toEqual({ address, ...want });
    if (want.utxos > 0) {
      const utxos = await allPages<any>(f, `/v1/addresses/${address}/utxos`, 'utxos');
      expect(String(sum(utxos.map((u) => BigInt(u.value))))).toBe(want.balance);
    }
  }
  await expectAnalyticsEqualChain(f, blocks);
  await expectFlowsEqualChain(f, ascending);
  expect(await checkInvariants(f.db.sql)).toEqual([]);
}

/** An output as the node writes it: value in base units, address (or none), script type. */
interface NodeOutput {
  value: bigint;
  address: string | null;
  type: string;
}

const nodeOutput = (o: any): NodeOutput => ({
  value: units(o.value),
  address: o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0] ?? null,
  type: o.scriptPubKey.type,
});

/** Largest first, then by address: how a flow orders each side's counterparties. */
const bySize = ([a, x]: [string, bigint], [b, y]: [string, bigint]) =>
  x < y ? 1 : x > y ? -1 : a < b ? -1 : a > b ? 1 : 0;

/**
 * Every transaction's flow (inputs with what they spend, outputs with whether they are spent, net flow per
 * address with its label, counterparties), and the counterparties of the recent-transactions list, against the
 * node's blocks: what each input spends and which outputs any input of the chain spends.
 */
async function expectFlowsEqualChain(f: ChainFixture, ascending: any[]) {
  const outputs = new Map<string, NodeOutput[]>();
  const spent = new Set<string>();
  const txs: any[] = [];
  for (const b of ascending) {
    const node = await f.node.call<any>('getblock', [b.hash, 2]);
    for (const t of node.rawtx ?? node.tx) {
      outputs.set(t.txid, t.vout.map(nodeOutput));
      for (const v of t.vin) if (!v.coinbase) spent.add(`${v.txid}:${v.vout}`);
      txs.push(t);
    }
  }
  const labels = new Map(f.definitions.labels.map((l) => [l.address, l.label]));
  const expected = new Map<string, { counterparties: unknown }>();
  // Every third transaction, and every one with many inputs or outputs (the fan-outs, the consolidations).
  const asked = txs.filter((t, i) => i % 3 === 0 || t.vin.length > 4 || t.vout.length > 8);
  for (const t of asked) {
    const ins = t.vin.map((v: any) => {
      if (v.coinbase) return { address: null, value: '0', prevTxid: null, prevVout: null };
      const o = outputs.get(v.txid)![v.vout]!;
      return { address: o.address, value: String(o.value), prevTxid: v.txid, prevVout: v.vout };
    });
    const outs = (outputs.get(t.txid) ?? []).map((o, vout) => ({
      address: o.address,
      value: String(o.value),
      vout,
      scriptType: o.type,
      spent: spent.has(`${t.txid}:${vout}`),
    }));
    const sides = (list: { address: string | null; value: string }[]) => {
      const m = new Map<string, bigint>();
      for (const x of list) if (x.address) m.set(x.address, (m.get(x.address) ?? 0n) + BigInt(x.value));
      return m;
    };
    const sent = sides(ins);
    const received = sides(outs);
    const net = [...new Set([...sent.keys(), ...received.keys()])]
      .map((address) => {
        const r = received.get(address) ?? 0n;
        const s = sent.get(address) ?? 0n;
        return { address, label: labels.get(address) ?? null, received: r, sent: s, net: r - s };
      })
      .sort((a, b) =>
        bySize([a.address, a.net < 0n ? -a.net : a.net], [b.address, b.net < 0n ? -b.net : b.net]),
      )
      .map((x) => ({ ...x, received: String(x.received), sent: String(x.sent), net: String(x.net) }));
    const top = (m: Map<string, bigint>) => [...m].sort(bySize).map(([a]) => a);
    const counterparties = {
      senders: top(sent).slice(0, 10),
      receivers: top(received).slice(0, 10),
      moreSenders: sent.size > 10,
      moreReceivers: received.size > 10,
    };
    expected.set(t.txid, { counterparties });
    const flow = (await f.get(`/v1/txs/${t.txid}/flow`)).body.flow;
    expect(flow).toEqual({
      txid: t.txid,
      blockHeight: flow.blockHeight,
      time: flow.time,
      type: flow.type,
      fee: flow.fee,
      feeRate: flow.feeRate,
      valueIn: String(ins.reduce((n: bigint, x: { value: string }) => n + BigInt(x.value), 0n)),
      valueOut: String(outs.reduce((n: bigint, x: { value: string }) => n + BigInt(x.value), 0n)),
      inputs: ins,
      outputs: outs,
      inputsTruncated: false,
      outputsTruncated: false,
      netFlows: net,
      counterparties,
    });
  }
  // The recent-transactions list reads the same sides, a page of transactions at a time.
  const recent = (await f.get('/v1/txs?limit=100')).body.txs;
  let compared = 0;
  for (const r of recent) {
    const want = expected.get(r.txid);
    if (!want) continue;
    expect({ txid: r.txid, counterparties: r.counterparties }).toEqual({ txid: r.txid, ...want });
    compared++;
  }
  expect(compared).toBeGreaterThan(10);
}

/** Miners, pools, supply and certificate analytics against the devnet's own figures. */
async function expectAnalyticsEqualChain(f: ChainFixture, blocks: any[]) {
  const pearl = f.devnet.options.dialect === 'pearl';
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

  // Supply to the grain: the schedule's emission, what coinbases claimed and left, what is unspendable.
  const supply = (await f.get('/v1/analytics/supply')).body.supply;
  const emitted = BigInt(truth.emitted);
  const unclaimed = BigInt(truth.unclaimed);
  const opReturn = BigInt(truth.opReturnValue);
  const burn = BigInt(truth.burnAddressBalance);
  expect(supply).toMatchObject({
    height: truth.height,
    blockHash: truth.tipHash,
    emitted: truth.emitted,
    claimed: String(emitted - unclaimed),
    fees: truth.fees,
    unspendable: {
      opReturn: truth.opReturnValue,
      unclaimedSubsidy: truth.unclaimed,
      burnAddresses: truth.burnAddressBalance,
      total: String(opReturn + unclaimed + burn),
    },
    circulating: String(emitted - unclaimed - opReturn - burn),
    maxSupply: pearl ? String(PEARL_TOTAL_SUPPLY) : null,
  });
  // …and the unspent set the index holds is exactly what was emitted and claimed, less OP_RETURN value.
  expect(String(emitted - unclaimed - opReturn)).toBe(truth.utxoValue);
  if (pearl) {
    expect(unclaimed).toBeGreaterThan(0n);
    expect(supply.formula).toContain(PEARL_EMISSION_FORMULA);
  }

  const pouw = (await f.get('/v1/analytics/pouw')).body.pouw;
  const c = truth.certificates;
  expect(pouw).toMatchObject({
    blocks: truth.height + 1,
    certifiedBlocks: c.total,
    moe: c.moe,
    commitmentFailures: c.commitmentFailures,
    placeholders: 0,
    unreadable: 0,
  });
  for (const v of ['1', '2', '3', '4', '5']) expect(pouw.byVersion[v]).toBe(c.byVersion[v] ?? 0);
  expect(pouw.certifiedShare).toBeCloseTo(c.total / (truth.height + 1), 12);
  if (!pearl) {
    expect(pouw.certifiedBlocks).toBe(0);
    return;
  }
  expect(pouw.proofSize).toMatchObject({ min: c.proofBytes.min, max: c.proofBytes.max });
  expect(pouw.proofSize.avg).toBeCloseTo(c.proofBytes.sum / c.total, 9);
  expect(pouw.proofSize.histogram.reduce((n: number, b: any) => n + b.certificates, 0)).toBe(c.total);
  // The 20 most frequent shapes, ties in (m, n, k) order.
  const shapes = Object.entries(c.shapes)
    .map(([key, certificates]) => {
      const [m, n, k] = key.split('×').map(Number) as [number, number, number];
      return { m, n, k, certificates };
    })
    .sort((a, b) => b.certificates - a.certificates || a.m - b.m || a.n - b.n || a.k - b.k)
    .slice(0, 20);
  expect(pouw.shapes).toEqual(shapes);
  expect(Object.fromEntries(pouw.ranks.map((r: any) => [r.rank, r.certificates]))).toEqual(c.ranks);
  const forks = f.devnet.options.certificateForks;
  expect(pouw.forks.map((x: any) => [x.version, x.firstSeenHeight, x.crossed, x.activationHeight])).toEqual([
    [2, c.firstHeight['2'] ?? null, truth.height >= forks.moe, null],
    [3, c.firstHeight['3'] ?? null, truth.height >= forks.saltedSeed, null],
    [4, c.firstHeight['4'] ?? null, truth.height >= forks.fp8, null],
    [5, null, false, null],
  ]);
  expect(pouw.daily.reduce((n: number, d: any) => n + d.byVersion['4'], 0)).toBeLessThanOrEqual(
    c.byVersion['4'] ?? 0,
  );
  expect(pouw.latest[0]).toMatchObject({ height: truth.height, verified: true, status: 'verified' });

  const network = (await f.get('/v1/analytics/network')).body.network;
  expect(network).toMatchObject({ height: truth.height, difficulty: blocks[0].difficulty, tipTime });
  expect(network.hashrate['1d'].blocks).toBe(blocks.filter((b) => b.time > tipTime - 86_400).length);
}

describe.each(['pearl', 'bitcoin'] as const)('figures served equal the chain (pglite, %s)', (dialect) => {
  let f: ChainFixture;
  beforeAll(async () => {
    f = await createChainFixture('pglite', { seed: 'figures', blocks: 150, dialect });
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
