import { indexNode, type NodeFixture } from '@explorer/chain-fixture';
import { type Litecoind, litecoindAvailable, startLitecoind, testDrivers } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { display, rootOf, sha256d } from '../test-support/merkle-proof.js';

// Proofs and outspends against a real node (Litecoin Core regtest): the header bytes are the node's own
// (`getblockheader <hash> false`), every proof reaches the root in them, and outspends agree with `gettxout`.

const unavailable = litecoindAvailable();
if (unavailable) console.log(`[tx-proofs] litecoind tests skipped: ${unavailable}`);
// The production path is PostgreSQL; PGlite stands in where no server answers.
const driver = testDrivers().at(-1)!;

interface NodeTx {
  txid: string;
  vin: { txid?: string; vout?: number; coinbase?: string }[];
  vout: { n: number; scriptPubKey: { type: string } }[];
}

describe.skipIf(unavailable !== null)(
  `/v1/txs/{txid}/status and /outspends against litecoind (${driver})`,
  () => {
    let node: Litecoind;
    let f: NodeFixture;
    let waiting: string;
    const blocks: { height: number; hash: string; merkleRoot: string; header: string; txs: NodeTx[] }[] = [];
    const spends = new Map<string, { txid: string; vin: number; height: number }>();

    const get = (path: string) => f.get(path);

    beforeAll(async () => {
      node = await startLitecoind();
      await node.mine(101);
      // Several payments in one block, each spending the change of the one before; then more in the next, which
      // spend outputs of the first. Six and seven transactions: an even and an odd count.
      const addresses = await Promise.all(
        (['legacy', 'p2sh-segwit', 'bech32', 'bech32', 'legacy', 'bech32'] as const).map((t) =>
          node.newAddress(t),
        ),
      );
      for (const [i, a] of addresses.entries()) if (i < 5) await node.send(a, 1 + i / 4);
      await node.mine(1);
      for (const [i, a] of addresses.entries()) await node.send(a, 0.5 + i / 8);
      await node.mine(1);
      waiting = await node.send(addresses[0]!, 0.25);

      // The API asks the node about what it has not indexed (the transaction still waiting).
      f = await indexNode(driver, node.rpcUrl);

      const tip = await node.rpc<number>('getblockcount');
      for (let height = 0; height <= tip; height++) {
        const hash = await node.rpc<string>('getblockhash', height);
        const block = await node.rpc<{ merkleroot: string; tx: NodeTx[] }>('getblock', hash, 2);
        const header = await node.rpc<string>('getblockheader', hash, false);
        blocks.push({ height, hash, merkleRoot: block.merkleroot, header, txs: block.tx });
        for (const t of block.tx)
          t.vin.forEach((i, vin) => {
            if (!i.coinbase) spends.set(`${i.txid}:${i.vout}`, { txid: t.txid, vin, height });
          });
      }
    }, 180_000);
    afterAll(async () => {
      await f?.close();
      await node?.stop();
    });

    it('proves every transaction of the busy blocks against the node’s own header bytes', async () => {
      const busy = blocks.filter((b) => b.txs.length > 1);
      expect(busy.map((b) => b.txs.length).sort()).toEqual([6, 7]);
      const tip = blocks.length - 1;
      for (const b of [...busy, blocks[1]!, blocks[tip - 2]!]) {
        for (const [index, tx] of b.txs.entries()) {
          const { status, body } = await get(`/v1/txs/${tx.txid}/status`);
          expect(status).toBe(200);
          const s = body.status;
          expect(s).toMatchObject({
            txid: tx.txid,
            confirmed: true,
            inMempool: false,
            blockHeight: b.height,
            blockHash: b.hash,
            blockIndex: index,
            blockTxCount: b.txs.length,
            confirmations: tip - b.height + 1,
            merkleProof: { blockHeight: b.height, pos: index },
          });
          expect(s.header).toBe(b.header);
          const header = Buffer.from(s.header, 'hex');
          expect(header).toHaveLength(80);
          expect(display(sha256d(header))).toBe(b.hash);
          expect(display(header.subarray(36, 68))).toBe(b.merkleRoot);
          expect(rootOf(tx.txid, s.merkleProof.merkle, s.merkleProof.pos)).toBe(b.merkleRoot);
        }
      }
    });

    it('reports as unspent exactly the outputs gettxout finds, and the node’s spender of every other one', async () => {
      let spent = 0;
      let unspent = 0;
      for (const b of blocks.filter((x) => x.height === 1 || x.height > 100)) {
        for (const tx of b.txs) {
          const { status, body } = await get(`/v1/txs/${tx.txid}/outspends?limit=100`);
          expect(status).toBe(200);
          expect(body.outspends.map((o: { vout: number }) => o.vout)).toEqual(tx.vout.map((o) => o.n));
          for (const o of body.outspends) {
            // Confirmed spends only, as the endpoint reports them: the node's UTXO set without its mempool.
            const utxo = await node.rpc<unknown>('gettxout', tx.txid, o.vout, false);
            const by = spends.get(`${tx.txid}:${o.vout}`) ?? null;
            const unspendable = tx.vout[o.vout]!.scriptPubKey.type === 'nulldata';
            expect({ at: `${tx.txid}:${o.vout}`, spent: o.spent, spentBy: o.spentBy }).toEqual({
              at: `${tx.txid}:${o.vout}`,
              spent: by !== null,
              spentBy: by,
            });
            if (!unspendable)
              expect({ at: `${tx.txid}:${o.vout}`, inUtxoSet: utxo !== null }).toEqual({
                at: `${tx.txid}:${o.vout}`,
                inUtxoSet: !o.spent,
              });
            if (o.spent) spent++;
            else if (!unspendable) unspent++;
          }
        }
      }
      expect(spent).toBeGreaterThanOrEqual(10);
      expect(unspent).toBeGreaterThanOrEqual(10);
    });

    it('says the unmined payment waits in the mempool, and refuses unknown and malformed txids', async () => {
      const { status, body } = await get(`/v1/txs/${waiting}/status`);
      expect(status).toBe(200);
      expect(body.status).toMatchObject({
        txid: waiting,
        confirmed: false,
        inMempool: true,
        confirmations: 0,
      });
      expect(body.status.merkleProof).toBeNull();
      expect((await get(`/v1/txs/${waiting}/outspends`)).status).toBe(404);
      const unknown = 'cd'.repeat(32);
      for (const path of [`/v1/txs/${unknown}/status`, `/v1/txs/${unknown}/outspends`]) {
        const r = await get(path);
        expect(r.status).toBe(404);
        expect(r.body).toMatchObject({ ok: false, error: `transaction ${unknown} not found`, meta: {} });
      }
      const bad = await get('/v1/txs/xyz/status');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ ok: false, error: expect.stringMatching(/txid/) });
    });
  },
);
