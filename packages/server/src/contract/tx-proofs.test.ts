import { type ChainFixture, createChainFixture, nodeBlockTxs } from '@explorer/chain-fixture';
import { type ChainNode, createExplorerApi, v1Routes } from '@explorer/core';
import { createSqlStore } from '@explorer/db';
import {
  type ContractReader,
  contractReader,
  createResponseValidator,
  pgSkipReason,
  type ResponseValidator,
  testDrivers,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { display, rootOf, sha256d } from '../test-support/merkle-proof.js';

const skip = pgSkipReason();
if (skip) console.log(`[tx-proofs] ${skip}`);

/** Where every output of the chain was spent, from the node's own blocks: `txid:vout` → spender. */
type Spends = Map<string, { txid: string; vin: number; height: number }>;

const cases = testDrivers().flatMap((driver) =>
  (['pearl', 'bitcoin'] as const).map((dialect) => [`${driver}, ${dialect}`, driver, dialect] as const),
);

describe.each(cases)('/v1/txs/{txid}/status and /outspends on the devnet (%s)', (_name, driver, dialect) => {
  let f: ChainFixture;
  let validator: ResponseValidator;
  let read: ContractReader;
  let tip: number;
  const blocks: { hash: string; merkleRoot: string; header: string; txs: any[] }[] = [];
  const spends: Spends = new Map();

  beforeAll(async () => {
    f = await createChainFixture(driver, { seed: 'tx-proofs', blocks: 36, txPerBlock: 9, dialect });
    validator = createResponseValidator((await f.get('/v1/openapi.json')).body);
    read = contractReader(f.get, validator);
    tip = f.devnet.height();
    for (let h = 0; h <= tip; h++) {
      const hash = await f.node.call<string>('getblockhash', [h]);
      const header = await f.node.call<string>('getblockheader', [hash, false]);
      const verbose = await f.node.call<{ merkleroot: string }>('getblockheader', [hash, true]);
      const txs = await nodeBlockTxs(f.node, h);
      blocks.push({ hash, merkleRoot: verbose.merkleroot, header, txs });
      for (const t of txs)
        (t.vin as any[]).forEach((i, vin) => {
          if (!i.coinbase) spends.set(`${i.txid}:${i.vout}`, { txid: t.txid, vin, height: h });
        });
    }
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });

  /** GETs a path of an operation and checks the answer against the OpenAPI document. */
  const get = (path: string, status: number) =>
    read.get(path, path.includes('/outspends') ? 'listTxOutspends' : 'getTxStatus', status);

  it('proves every transaction of every block against the header it returns, odd counts included', async () => {
    const counts = blocks.map((b) => b.txs.length);
    // The chain must hold what the test is about: single-transaction blocks, odd counts past 1, wide blocks.
    expect(counts).toContain(1);
    expect(counts.some((n) => n > 2 && n % 2 === 1)).toBe(true);
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(9);
    const headerSize = dialect === 'pearl' ? 108 : 80;
    for (const [height, block] of blocks.entries()) {
      for (const [index, tx] of block.txs.entries()) {
        const { status } = await get(`/v1/txs/${tx.txid}/status`, 200);
        expect(status).toMatchObject({
          txid: tx.txid,
          confirmed: true,
          inMempool: false,
          blockHeight: height,
          blockHash: block.hash,
          blockIndex: index,
          blockTxCount: block.txs.length,
          confirmations: tip - height + 1,
        });
        expect(status.merkleProof.pos).toBe(index);
        expect(status.merkleProof.blockHeight).toBe(height);
        const header = Buffer.from(status.header, 'hex');
        expect(header).toHaveLength(headerSize);
        // Pearl's block hash is SHA256d of its 108 bytes (no nonce), Core's of its 80: the same rule.
        expect(display(sha256d(header))).toBe(block.hash);
        expect(status.header).toBe(block.header);
        const headerRoot = display(header.subarray(36, 68));
        expect(headerRoot).toBe(block.merkleRoot);
        expect(rootOf(tx.txid, status.merkleProof.merkle, status.merkleProof.pos)).toBe(headerRoot);
        // And the proof binds the position: another one does not reach the root (unless the transaction is
        // paired with itself, the last of an odd level, where either side gives the same parent).
        if (block.txs.length > 1 && status.merkleProof.merkle[0] !== tx.txid)
          expect(rootOf(tx.txid, status.merkleProof.merkle, index ^ 1)).not.toBe(headerRoot);
      }
    }
  }, 120_000);

  it('reports each output spent by the input the node names, in output order, across pages', async () => {
    let spent = 0;
    for (const block of blocks) {
      for (const tx of block.txs) {
        const expected = (tx.vout as any[]).map((_o, vout) => {
          const by = spends.get(`${tx.txid}:${vout}`);
          return { vout, spent: by !== undefined, spentBy: by ?? null };
        });
        spent += expected.filter((e) => e.spent).length;
        const { outspends, pagination } = await get(`/v1/txs/${tx.txid}/outspends?limit=100`, 200);
        expect(pagination.hasMore).toBe(false);
        expect({ txid: tx.txid, outspends }).toEqual({ txid: tx.txid, outspends: expected });
      }
    }
    expect(spent).toBeGreaterThan(20);

    // Page by page, following cursors, through the widest transaction.
    const wide = blocks.flatMap((b) => b.txs).sort((a, b) => b.vout.length - a.vout.length)[0];
    expect(wide.vout.length).toBeGreaterThan(2);
    const paged: any[] = [];
    let cursor: string | undefined;
    do {
      const q = cursor ? `&cursor=${cursor}` : '';
      const body = await get(`/v1/txs/${wide.txid}/outspends?limit=2${q}`, 200);
      expect(body.outspends.length).toBeLessThanOrEqual(2);
      paged.push(...body.outspends);
      cursor = body.pagination.nextCursor;
    } while (cursor);
    expect(paged.map((o) => o.vout)).toEqual(wide.vout.map((_o: unknown, i: number) => i));
    // A cursor of one transaction's list is refused by another's.
    const first = await get(`/v1/txs/${wide.txid}/outspends?limit=1`, 200);
    const other = blocks[1]!.txs[0].txid;
    const refused = await get(`/v1/txs/${other}/outspends?cursor=${first.pagination.nextCursor}`, 400);
    expect(refused.error).toMatch(/cursor/);
  }, 120_000);

  it('says a mempool transaction waits there, and refuses malformed and unknown txids with the envelope', async () => {
    const [waiting] = f.devnet.addTxs(1);
    expect(waiting).toBeDefined();
    const { status } = await get(`/v1/txs/${waiting!.txid}/status`, 200);
    expect(status).toEqual({
      txid: waiting!.txid,
      confirmed: false,
      inMempool: true,
      confirmations: 0,
      blockHeight: null,
      blockHash: null,
      blockIndex: null,
      blockTime: null,
      blockTxCount: null,
      merkleProof: null,
      header: null,
    });
    // Spends by the mempool are not reported; the transaction itself is not in the index yet.
    await get(`/v1/txs/${waiting!.txid}/outspends`, 404);

    const unknown = 'ab'.repeat(32);
    for (const path of [`/v1/txs/${unknown}/status`, `/v1/txs/${unknown}/outspends`]) {
      const body = await get(path, 404);
      expect(body).toMatchObject({ ok: false, error: `transaction ${unknown} not found` });
      expect(Object.keys(body).sort()).toEqual(['error', 'meta', 'ok']);
    }

    // Without a node the index alone answers: 404. With a node that cannot answer, the transaction may be
    // waiting in its mempool: 503 with Retry-After, not a 404 that a wallet would believe.
    const over = (node: ChainNode | null) =>
      createExplorerApi({
        store: createSqlStore(f.db.sql),
        routes: v1Routes,
        node,
        config: { finalityDepth: 20, publicBaseUrl: 'http://127.0.0.1:3000', tipCacheMs: 0 },
      });
    const down: ChainNode = {
      lastHeight: () => null,
      probe: async () => ({ reachable: false, height: null, latencyMs: null, error: 'down' }),
      call: async () => {
        throw new Error('connection refused');
      },
    };
    const confirmed = blocks[2]!.txs[0].txid;
    for (const [node, expected] of [
      [null, 404],
      [down, 503],
    ] as const) {
      const api = over(node);
      const res = await api.handle(new Request(`http://127.0.0.1/v1/txs/${waiting!.txid}/status`));
      const body = (await res.json()) as any;
      expect({ status: res.status, ok: body.ok }).toEqual({ status: expected, ok: false });
      expect(validator.check('getTxStatus', res.status, body)).toBeNull();
      if (expected === 503) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      // A confirmed transaction never needs the node.
      const known = await api.handle(new Request(`http://127.0.0.1/v1/txs/${confirmed}/status`));
      expect(known.status).toBe(200);
    }
    for (const bad of ['abc', 'zz'.repeat(32), `${unknown}0`]) {
      for (const path of [`/v1/txs/${bad}/status`, `/v1/txs/${bad}/outspends`]) {
        const body = await get(path, 400);
        expect(body).toMatchObject({ ok: false, error: expect.stringMatching(/txid/) });
      }
    }
  });
});
