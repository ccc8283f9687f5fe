import { type ChainFixture, createChainFixture, nodeBlockTxs } from '@explorer/chain-fixture';
import { silentLogger } from '@explorer/core';
import { testDrivers } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerApp } from '../http/app.js';
import {
  addressFacts,
  expectScriptHashAsAddress,
  expectTxAsNode,
  mempoolClient,
  nodeAddress,
  outputsOf,
  units,
} from '../test-support/esplora.js';
import { merkleBlockProves, rootOf } from '../test-support/merkle-proof.js';
import { serveApp } from '../test-support/serve-app.js';

/**
 * The Esplora adapter as mempool.space's own client library sees it: mempool.js pointed at the explorer (over
 * HTTP, as a wallet would) on the Pearl devnet, every answer held against what the node itself says.
 */
describe.each(testDrivers())(
  'Esplora REST through @mempool/mempool.js on the Pearl devnet (%s)',
  (driver) => {
    let f: ChainFixture;
    let served: Awaited<ReturnType<typeof serveApp>>;
    let base: string;
    let api: ReturnType<typeof mempoolClient>;
    let tip: number;
    /** Every block's transactions as the node renders them, by height. */
    const blocks: any[][] = [];
    /** `txid:vout` → the input that spent it. */
    const spends = new Map<string, { txid: string; vin: number; height: number }>();

    beforeAll(async () => {
      f = await createChainFixture(driver, { seed: 'esplora', blocks: 24, txPerBlock: 30, dialect: 'pearl' });
      // Through the server's own app (its middleware included), over HTTP, as a wallet reaches it.
      served = await serveApp(createServerApp({ api: f.api, log: silentLogger }).fetch);
      base = served.url;
      api = mempoolClient(base);
      tip = f.devnet.height();
      for (let h = 0; h <= tip; h++) {
        const txs = await nodeBlockTxs(f.node, h);
        blocks.push(txs);
        for (const t of txs)
          (t.vin as any[]).forEach((i, vin) => {
            if (!i.coinbase) spends.set(`${i.txid}:${i.vout}`, { txid: t.txid, vin, height: h });
          });
      }
    }, 120_000);
    afterAll(async () => {
      await served?.close();
      await f?.close();
    });

    it('tells the tip, block hashes by height, blocks and their status as the node does', async () => {
      expect(await api.blocks.getBlocksTipHeight()).toBe(tip);
      expect(await api.blocks.getBlocksTipHash()).toBe(await f.node.call('getbestblockhash'));
      for (const h of [0, 1, Math.floor(tip / 2), tip]) {
        const hash = await f.node.call<string>('getblockhash', [h]);
        expect(await api.blocks.getBlockHeight({ height: h })).toBe(hash);
        const node = await f.node.call<any>('getblock', [hash, 1]);
        const block = (await api.blocks.getBlock({ hash })) as any;
        expect(block).toMatchObject({
          id: hash,
          height: h,
          timestamp: node.time,
          tx_count: node.tx.length,
          merkle_root: node.merkleroot,
          // Esplora's genesis has none (pearld writes the zero hash).
          previousblockhash: h === 0 ? null : node.previousblockhash,
          bits: Number.parseInt(node.bits, 16),
        });
        expect(block.extras.reward).toBe(
          (blocks[h]![0].vout as any[]).reduce((s, o) => s + units(o.value), 0),
        );
        expect(await api.blocks.getBlockStatus({ hash })).toEqual({
          in_best_chain: true,
          height: h,
          next_best: h < tip ? await f.node.call('getblockhash', [h + 1]) : null,
        });
        expect(await api.blocks.getBlockTxids({ hash })).toEqual(node.tx);
        expect(await api.blocks.getBlockTxid({ hash, index: node.tx.length - 1 })).toBe(node.tx.at(-1));
        expect(await api.blocks.getBlockHeader({ hash })).toBe(
          await f.node.call('getblockheader', [hash, false]),
        );
        const raw = Buffer.from(await (await fetch(`${base}/api/block/${hash}/raw`)).arrayBuffer());
        expect(raw.toString('hex')).toBe(await f.node.call('getblock', [hash, 0]));
      }
      const unknown = 'ab'.repeat(32);
      expect(await api.blocks.getBlockStatus({ hash: unknown })).toEqual({
        in_best_chain: false,
        height: null,
        next_best: null,
      });
      await expect(api.blocks.getBlock({ hash: unknown })).rejects.toMatchObject({
        response: { status: 404 },
      });
    });

    it('pages a block of more than 25 transactions by 25, and refuses a start that is not a multiple', async () => {
      const h = blocks.findIndex((txs) => txs.length > 25);
      expect(h, 'the chain holds a block of more than 25 transactions').toBeGreaterThan(-1);
      const hash = await f.node.call<string>('getblockhash', [h]);
      // mempool.js types these as one Tx; they are lists.
      const first = (await api.blocks.getBlockTxs({ hash })) as unknown as { txid: string }[];
      const second = (await api.blocks.getBlockTxs({ hash, start_index: 25 })) as unknown as {
        txid: string;
      }[];
      expect([...first, ...second].map((t) => t.txid)).toEqual(blocks[h]!.map((t) => t.txid).slice(0, 50));
      expect(first).toHaveLength(25);
      const bad = await fetch(`${base}/api/block/${hash}/txs/3`);
      expect([bad.status, await bad.text()]).toEqual([400, 'start index must be a multiple of 25']);
    });

    it('renders every transaction as the node has it: inputs with what they spend, scripts, witnesses, fee, status', async () => {
      const outputs = outputsOf(blocks);
      let checked = 0;
      for (let h = 0; h <= tip; h += 3) {
        const hash = await f.node.call<string>('getblockhash', [h]);
        const time = (await f.node.call<any>('getblock', [hash, 1])).time;
        for (const t of blocks[h]!) {
          const tx = await api.transactions.getTx({ txid: t.txid });
          expectTxAsNode(tx, t, outputs);
          expect(tx.status).toEqual({ confirmed: true, block_height: h, block_hash: hash, block_time: time });
          expect(await api.transactions.getTxHex({ txid: t.txid })).toBe(t.hex);
          expect(await api.transactions.getTxStatus({ txid: t.txid })).toEqual(tx.status);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(50);
    });

    it('proves inclusion against the header the node gives, and says where each output was spent', async () => {
      for (let h = 1; h <= tip; h += 5) {
        const hash = await f.node.call<string>('getblockhash', [h]);
        const root = (await f.node.call<any>('getblockheader', [hash, true])).merkleroot;
        const header = Buffer.from(await f.node.call<string>('getblockheader', [hash, false]), 'hex');
        for (const t of blocks[h]!) {
          const proof = await api.transactions.getTxMerkleProof({ txid: t.txid });
          expect([proof.block_height, rootOf(t.txid, proof.merkle, proof.pos)]).toEqual([h, root]);
          // The merkleblock: the header, then a partial merkle tree that reaches the same root, this txid matched.
          const block = Buffer.from(
            String(await api.transactions.getTxMerkleBlockProof({ txid: t.txid })),
            'hex',
          );
          expect(block.subarray(0, header.length).equals(header)).toBe(true);
          expect(merkleBlockProves(block, header.length)).toEqual({
            count: blocks[h]!.length,
            root,
            matched: [t.txid],
            hashesUsed: true,
          });
          const outspends = await api.transactions.getTxOutspends({ txid: t.txid });
          expect(outspends).toHaveLength(t.vout.length);
          outspends.forEach((o: any, vout: number) => {
            const by = spends.get(`${t.txid}:${vout}`);
            if (!by) expect(o).toEqual({ spent: false });
            else
              expect(o).toMatchObject({
                spent: true,
                txid: by.txid,
                vin: by.vin,
                status: { block_height: by.height },
              });
          });
          expect(await api.transactions.getTxOutspend({ txid: t.txid, vout: 0 })).toEqual(outspends[0]);
        }
      }
    });

    it('counts an address as Esplora does, lists its history 25 at a time and its unspent outputs', async () => {
      const stats = addressFacts(blocks);
      const outputScript = (a: string) =>
        [...outputsOf(blocks).values()].find((o) => nodeAddress(o) === a)!.scriptPubKey.hex as string;
      const busiest = [...stats.entries()].sort((a, b) => b[1].txs.length - a[1].txs.length);
      expect(busiest[0]![1].txs.length, 'an address with more than a page of history').toBeGreaterThan(25);
      for (const [a, s] of [...busiest.slice(0, 3), ...busiest.slice(-3)]) {
        const got = await api.addresses.getAddress({ address: a });
        expect(got.chain_stats).toEqual({
          funded_txo_count: s.funded,
          funded_txo_sum: s.fundedSum,
          spent_txo_count: s.spent,
          spent_txo_sum: s.spentSum,
          tx_count: s.txs.length,
        });
        // Newest first, 25 a page, each page after the last txid of the one before.
        const chain: string[] = [];
        let page = await api.addresses.getAddressTxsChain({ address: a });
        while (page.length > 0) {
          chain.push(...page.map((t) => t.txid));
          expect(page.length).toBeLessThanOrEqual(25);
          const last = page.at(-1)!.txid;
          page = (await (await fetch(`${base}/api/address/${a}/txs/chain/${last}`)).json()) as any[];
        }
        // Within a block the order is the block's (electrs's is by key bytes there); the set and heights agree.
        expect([...chain].sort()).toEqual([...s.txs].sort());
        const confirmed = (await api.addresses.getAddressTxs({ address: a })).filter(
          (t) => t.status.confirmed,
        );
        expect(confirmed.map((t) => t.txid)).toEqual(chain.slice(0, 25));
        const mempoolTxids = new Set(
          (await api.addresses.getAddressTxsMempool({ address: a })).map((t) => t.txid),
        );
        const utxos = await api.addresses.getAddressTxsUtxo({ address: a });
        const spentInMempool = new Set<string>();
        for (const txid of mempoolTxids) {
          const t = await api.transactions.getTx({ txid });
          for (const i of t.vin) spentInMempool.add(`${i.txid}:${i.vout}`);
        }
        expect(
          utxos
            .filter((u) => u.status.confirmed)
            .map((u) => `${u.txid}:${u.vout}`)
            .sort(),
        ).toEqual([...s.utxos].filter((k) => !spentInMempool.has(k)).sort());
      }
      const bad = await fetch(`${base}/api/address/not-an-address!`);
      expect(bad.status).toBe(400);
      // The same by script hash (what BDK asks by), for a script of each kind the chain pays.
      const byKind = new Map<string, [string, string]>();
      for (const o of outputsOf(blocks).values()) {
        const a = nodeAddress(o);
        if (a && !byKind.has(o.scriptPubKey.type)) byKind.set(o.scriptPubKey.type, [a, o.scriptPubKey.hex]);
      }
      expect(byKind.size).toBeGreaterThan(0);
      const top = busiest[0]![0];
      const checks: [string, string][] = [...byKind.values(), [top, outputScript(top)]];
      for (const [a, script] of checks) await expectScriptHashAsAddress(base, a, script);
      const none = await (await fetch(`${base}/api/scripthash/${'00'.repeat(32)}`)).json();
      expect(none.chain_stats.tx_count).toBe(0);
      const invalid = await fetch(`${base}/api/scripthash/xyz`);
      expect([invalid.status, await invalid.text()]).toEqual([400, 'Invalid scripthash']);
    });

    it('reads the mempool and the fee estimates; a broadcast is refused while broadcasting is off', async () => {
      const nodeTxids = (await f.node.call<string[]>('getrawmempool')).sort();
      // mempool.js types this as a list; it is one object.
      const m = (await api.mempool.getMempool()) as unknown as { count: number };
      expect(m.count).toBe(nodeTxids.length);
      expect((await api.mempool.getMempoolTxids()).sort()).toEqual(nodeTxids);
      if (nodeTxids.length > 0) {
        const waiting = await api.transactions.getTx({ txid: nodeTxids[0]! });
        expect(waiting.status).toEqual({ confirmed: false });
        const node = await f.node.call<any>('getrawtransaction', [nodeTxids[0], true]);
        expect(waiting.vout.map((o) => o.value)).toEqual((node.vout as any[]).map((o) => units(o.value)));
        const recent = await api.mempool.getMempoolRecent();
        expect(recent.length).toBe(Math.min(10, nodeTxids.length));
      }
      const fees = (await api.fees.getFeesRecommended()) as any;
      expect(fees.fastestFee).toBeGreaterThanOrEqual(fees.hourFee);
      expect(fees.hourFee).toBeGreaterThanOrEqual(fees.minimumFee);
      const estimates = (await (await fetch(`${base}/api/fee-estimates`)).json()) as Record<string, number>;
      expect(Object.keys(estimates)).toContain('1008');
      await expect(api.transactions.postTx({ txhex: '00' })).rejects.toMatchObject({
        response: { status: 405, data: expect.stringContaining('broadcasting is turned off') },
      });
      const unknown = await fetch(`${base}/api/nothing/here`);
      expect([unknown.status, await unknown.text()]).toEqual([
        404,
        'endpoint does not exist "/nothing/here"',
      ]);
      // The /v1 document does not list the adapter's paths.
      expect(
        Object.keys((await f.get('/v1/openapi.json')).body.paths).some((p) => p.startsWith('/api/tx')),
      ).toBe(false);
    });
  },
);
