import { indexNode, type NodeFixture } from '@explorer/chain-fixture';
import { silentLogger } from '@explorer/core';
import { type Litecoind, litecoindAvailable, startLitecoind, testDrivers } from '@explorer/testing';
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

// The Esplora adapter against a real node (Litecoin Core regtest) through mempool.space's own client: every
// script type the wallet can pay and spend (P2PKH, P2SH-P2WPKH, P2WPKH, bare and P2SH and P2WSH multisig,
// OP_RETURN), a reorg, the mempool and a broadcast, each answer held against the node's.

const unavailable = litecoindAvailable();
if (unavailable) console.log(`[esplora] litecoind tests skipped: ${unavailable}`);
const driver = testDrivers().at(-1)!;

/** What electrs names each of the node's script types. */
const ESPLORA_TYPE: Record<string, string> = {
  pubkeyhash: 'p2pkh',
  scripthash: 'p2sh',
  witness_v0_keyhash: 'v0_p2wpkh',
  witness_v0_scripthash: 'v0_p2wsh',
  nulldata: 'op_return',
  pubkey: 'p2pk',
  multisig: 'unknown',
  nonstandard: 'unknown',
};

/** Core's asm of a standard script from rust-bitcoin's (pushes of more than 4 bytes as hex, OP_0 as 0). */
const coreAsm = (asm: string) =>
  asm
    .replace(/OP_PUSHBYTES_\d+ /g, '')
    .replace(/\bOP_0\b/g, '0')
    .replace(/OP_PUSHNUM_(\d+)/g, '$1');

describe.skipIf(unavailable !== null)(
  `Esplora REST through @mempool/mempool.js against litecoind (${driver})`,
  () => {
    let node: Litecoind;
    let f: NodeFixture;
    let served: Awaited<ReturnType<typeof serveApp>>;
    let base: string;
    let api: ReturnType<typeof mempoolClient>;
    const addresses: Record<string, string> = {};

    /** Every block of the node's best chain, its transactions as the node writes them. */
    const chain = async () => {
      const tip = await node.rpc<number>('getblockcount');
      const blocks: any[][] = [];
      for (let h = 0; h <= tip; h++)
        blocks.push((await node.rpc<any>('getblock', await node.rpc<string>('getblockhash', h), 2)).tx);
      return blocks;
    };

    /** Spends every one of the wallet's outputs at `to` in one transaction, with its change to `change`. */
    const spendAll = async (from: string[], to: string) => {
      const utxos = await node.rpc<{ txid: string; vout: number; amount: number }[]>(
        'listunspent',
        1,
        9_999_999,
        from,
      );
      const total = utxos.reduce((s, u) => s + u.amount, 0);
      const raw = await node.rpc<string>(
        'createrawtransaction',
        utxos.map((u) => ({ txid: u.txid, vout: u.vout })),
        { [to]: Number((total - 0.001).toFixed(8)) },
      );
      const signed = await node.rpc<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', raw);
      expect(signed.complete).toBe(true);
      return node.rpc<string>('sendrawtransaction', signed.hex);
    };

    beforeAll(async () => {
      node = await startLitecoind();
      await node.mine(101);
      for (const t of ['legacy', 'p2sh-segwit', 'bech32'] as const) addresses[t] = await node.newAddress(t);
      const keys = await Promise.all(
        [0, 1].map(
          async () => (await node.rpc<any>('getaddressinfo', await node.newAddress('legacy'))).pubkey,
        ),
      );
      for (const t of ['legacy', 'bech32'] as const)
        addresses[`multisig-${t}`] = (await node.rpc<any>('addmultisigaddress', 1, keys, '', t)).address;
      for (const a of Object.values(addresses)) await node.send(a, 1.5);
      // OP_RETURN data beside a payment.
      const raw = await node.rpc<string>('createrawtransaction', [], { data: '68656c6c6f20776f726c64' });
      const funded = await node.rpc<{ hex: string }>('fundrawtransaction', raw);
      const signed = await node.rpc<{ hex: string }>('signrawtransactionwithwallet', funded.hex);
      await node.rpc('sendrawtransaction', signed.hex);
      await node.mine(1);
      // Each kind spent, so that inputs of every type (and their inner scripts) are in the chain.
      await spendAll(Object.values(addresses), await node.newAddress('bech32'));
      await node.mine(1);
      f = await indexNode(driver, node.rpcUrl, { esplora: { broadcast: true } });
      served = await serveApp(createServerApp({ api: f.api, log: silentLogger }).fetch);
      base = served.url;
      api = mempoolClient(base);
    }, 180_000);
    afterAll(async () => {
      await served?.close();
      await f?.close();
      await node?.stop();
    });

    it('renders every transaction of the chain as the node has it, every script type named as electrs names it', async () => {
      const blocks = await chain();
      const outputs = outputsOf(blocks);
      const seen = new Set<string>();
      const inner = { redeem: 0, witness: 0 };
      for (const [h, txs] of blocks.entries()) {
        if (h > 1 && h < blocks.length - 3) continue;
        const hash = await node.rpc<string>('getblockhash', h);
        for (const t of txs) {
          const tx = await api.transactions.getTx({ txid: t.txid });
          expectTxAsNode(tx, t, outputs);
          expect(tx.status).toMatchObject({ confirmed: true, block_height: h, block_hash: hash });
          (t.vout as any[]).forEach((o, n) => {
            const type = ESPLORA_TYPE[o.scriptPubKey.type] ?? 'unknown';
            seen.add(o.scriptPubKey.type);
            expect(tx.vout[n]!.scriptpubkey_type).toBe(type);
            if (type !== 'unknown' && type !== 'p2pk')
              expect(coreAsm(tx.vout[n]!.scriptpubkey_asm)).toBe(o.scriptPubKey.asm);
          });
          for (const i of tx.vin as any[]) {
            if (i.inner_redeemscript_asm !== undefined) inner.redeem++;
            if (i.inner_witnessscript_asm !== undefined) inner.witness++;
          }
          expect(await api.transactions.getTxHex({ txid: t.txid })).toBe(t.hex);
        }
      }
      expect([...seen].sort()).toEqual(
        expect.arrayContaining([
          'nulldata',
          'pubkeyhash',
          'scripthash',
          'witness_v0_keyhash',
          'witness_v0_scripthash',
        ]),
      );
      // P2SH-P2WPKH and P2SH multisig spends carry a redeem script; P2WSH multisig a witness script.
      expect(inner.redeem).toBeGreaterThanOrEqual(2);
      expect(inner.witness).toBeGreaterThanOrEqual(1);
    });

    it('serves blocks, proofs, outspends and each address as the node’s chain says', async () => {
      const blocks = await chain();
      const tip = blocks.length - 1;
      expect(await api.blocks.getBlocksTipHeight()).toBe(tip);
      expect(await api.blocks.getBlocksTipHash()).toBe(await node.rpc('getbestblockhash'));
      for (const h of [tip - 1, tip]) {
        const hash = await node.rpc<string>('getblockhash', h);
        const header = await node.rpc<any>('getblockheader', hash, true);
        const block = (await api.blocks.getBlock({ hash })) as any;
        expect(block).toMatchObject({
          id: hash,
          height: h,
          version: header.version,
          timestamp: header.time,
          mediantime: header.mediantime,
          nonce: header.nonce,
          bits: Number.parseInt(header.bits, 16),
          merkle_root: header.merkleroot,
          previousblockhash: header.previousblockhash,
          tx_count: header.nTx,
        });
        expect(block.difficulty).toBeCloseTo(header.difficulty, 12);
        expect(await api.blocks.getBlockHeader({ hash })).toBe(await node.rpc('getblockheader', hash, false));
        const raw = Buffer.from(await (await fetch(`${base}/api/block/${hash}/raw`)).arrayBuffer());
        expect(raw.toString('hex')).toBe(await node.rpc('getblock', hash, 0));
        for (const t of blocks[h]!) {
          const proof = await api.transactions.getTxMerkleProof({ txid: t.txid });
          expect(rootOf(t.txid, proof.merkle, proof.pos)).toBe(header.merkleroot);
          // The merkleblock, byte for byte what the node's gettxoutproof answers, and what it proves.
          const block = String(await api.transactions.getTxMerkleBlockProof({ txid: t.txid }));
          expect(block).toBe(await node.rpc('gettxoutproof', [t.txid], hash));
          expect(merkleBlockProves(Buffer.from(block, 'hex'), 80)).toMatchObject({
            root: header.merkleroot,
            matched: [t.txid],
          });
          const outspends = await api.transactions.getTxOutspends({ txid: t.txid });
          for (const [vout, o] of outspends.entries()) {
            const unspent = await node.rpc<unknown>('gettxout', t.txid, vout, false);
            const opReturn = t.vout[vout].scriptPubKey.type === 'nulldata';
            expect(o.spent, `${t.txid}:${vout}`).toBe(unspent === null && !opReturn);
          }
        }
      }
      const facts = addressFacts(blocks);
      for (const [kind, a] of Object.entries(addresses)) {
        const s = facts.get(a)!;
        const got = await api.addresses.getAddress({ address: a });
        expect(got.chain_stats, kind).toEqual({
          funded_txo_count: s.funded,
          funded_txo_sum: s.fundedSum,
          spent_txo_count: s.spent,
          spent_txo_sum: s.spentSum,
          tx_count: s.txs.length,
        });
        expect(got.chain_stats.funded_txo_sum).toBe(
          units(await node.rpc<number>('getreceivedbyaddress', a, 1)),
        );
        expect((await api.addresses.getAddressTxsChain({ address: a })).map((t) => t.txid).sort()).toEqual(
          [...s.txs].sort(),
        );
        expect(await api.addresses.getAddressTxsUtxo({ address: a })).toEqual([]);
        const script = [...outputsOf(blocks).values()].find((o) => nodeAddress(o) === a)!.scriptPubKey.hex;
        await expectScriptHashAsAddress(base, a, script);
      }
    });

    it('shows a transaction waiting in the mempool, and broadcasts one when broadcasting is on', async () => {
      const to = await node.newAddress('bech32');
      const waiting = await node.send(to, 0.25);
      const tx = await api.transactions.getTx({ txid: waiting });
      expect(tx.status).toEqual({ confirmed: false });
      const nodeTx = await node.rpc<any>('getrawtransaction', waiting, true);
      const outputs = outputsOf(await chain());
      expectTxAsNode(tx, nodeTx, outputs);
      expect(await api.transactions.getTxStatus({ txid: waiting })).toEqual({ confirmed: false });
      expect(await api.mempool.getMempoolTxids()).toContain(waiting);
      // A transaction the node has not seen, signed by the wallet, sent through the explorer.
      const raw = await node.rpc<string>(
        'createrawtransaction',
        [{ txid: waiting, vout: tx.vout.findIndex((o) => o.scriptpubkey_address === to) }],
        {
          [await node.newAddress('legacy')]: 0.2499,
        },
      );
      const signed = await node.rpc<{ hex: string }>('signrawtransactionwithwallet', raw);
      const sent = await api.transactions.postTx({ txhex: signed.hex });
      expect(String(sent)).toBe((await node.rpc<{ txid: string }>('decoderawtransaction', signed.hex)).txid);
      expect(await node.rpc<string[]>('getrawmempool')).toContain(String(sent));
      await expect(api.transactions.postTx({ txhex: '00' })).rejects.toMatchObject({
        response: {
          status: 400,
          data: expect.stringMatching(
            /^sendrawtransaction RPC error: \{"code":-22,"message":"TX decode failed/,
          ),
        },
      });
    });

    it('follows a reorg: the old block leaves the best chain, its transactions wait again, then confirm anew', async () => {
      await node.mine(1);
      await f.sync();
      const old = await node.rpc<string>('getbestblockhash');
      const moved = (await node.rpc<any>('getblock', old, 1)).tx.slice(1) as string[];
      expect(moved.length).toBeGreaterThan(0);
      expect((await api.transactions.getTxStatus({ txid: moved[0]! })).confirmed).toBe(true);
      await node.rpc('invalidateblock', old);
      const to = await node.newAddress('bech32');
      await node.rpc('generateblock', to, []);
      await node.rpc('generateblock', to, []);
      await f.sync();
      expect(await api.blocks.getBlocksTipHash()).toBe(await node.rpc('getbestblockhash'));
      expect(await api.blocks.getBlockStatus({ hash: old })).toEqual({
        in_best_chain: false,
        height: null,
        next_best: null,
      });
      expect(await api.transactions.getTxStatus({ txid: moved[0]! })).toEqual({ confirmed: false });
      expect((await api.transactions.getTx({ txid: moved[0]! })).status).toEqual({ confirmed: false });
      await node.mine(1);
      await f.sync();
      const now = await node.rpc<any>('getrawtransaction', moved[0], true);
      expect(await api.transactions.getTxStatus({ txid: moved[0]! })).toMatchObject({
        confirmed: true,
        block_hash: now.blockhash,
      });
    });
  },
);
