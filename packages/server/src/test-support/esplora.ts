import { createHash } from 'node:crypto';
import mempoolJS from '@mempool/mempool.js';
import { expect } from 'vitest';

// What the Esplora adapter's tests expect, worked out from the node's own blocks (never from the explorer's code).

/** Coins (the node's JSON amounts, 8 decimals on every chain served) as base units. */
export const units = (coins: number) => Math.round(coins * 1e8);

/** mempool.space's client pointed at an explorer's Esplora API (`base`: `http://127.0.0.1:<port>`). */
export function mempoolClient(base: string) {
  const { host } = new URL(base);
  return mempoolJS({ protocol: 'http', hostname: host }).bitcoin;
}

/** The address a node writes for an output (Core ≤ 0.21 in a list, newer and pearld alone); null for none. */
export const nodeAddress = (o: any): string | null =>
  o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0] ?? null;

/** Every output of the blocks by `txid:vout`. */
export function outputsOf(blocks: readonly any[][]): Map<string, any> {
  const out = new Map<string, any>();
  for (const txs of blocks)
    for (const t of txs)
      (t.vout as any[]).forEach((o, n) => {
        out.set(`${t.txid}:${n}`, o);
      });
  return out;
}

/** An address's Esplora statistics and unspent outputs, counted from the node's blocks. */
export interface AddressFacts {
  funded: number;
  fundedSum: number;
  spent: number;
  spentSum: number;
  /** Transactions touching it, newest first. */
  txs: string[];
  utxos: Set<string>;
}

/** Every address's facts, from the blocks in chain order. */
export function addressFacts(blocks: readonly any[][]): Map<string, AddressFacts> {
  const facts = new Map<string, AddressFacts>();
  const of = (a: string) => {
    let s = facts.get(a);
    if (!s) {
      s = { funded: 0, fundedSum: 0, spent: 0, spentSum: 0, txs: [], utxos: new Set() };
      facts.set(a, s);
    }
    return s;
  };
  const owner = new Map<string, { address: string; value: number }>();
  for (const txs of blocks)
    for (const t of txs) {
      const touched = new Set<string>();
      for (const i of t.vin as any[]) {
        const o = owner.get(`${i.txid}:${i.vout}`);
        if (!o) continue;
        const s = of(o.address);
        s.spent++;
        s.spentSum += o.value;
        s.utxos.delete(`${i.txid}:${i.vout}`);
        touched.add(o.address);
      }
      (t.vout as any[]).forEach((o, n) => {
        const a = nodeAddress(o);
        if (!a) return;
        const s = of(a);
        s.funded++;
        s.fundedSum += units(o.value);
        s.utxos.add(`${t.txid}:${n}`);
        owner.set(`${t.txid}:${n}`, { address: a, value: units(o.value) });
        touched.add(a);
      });
      for (const a of touched) of(a).txs.unshift(t.txid);
    }
  return facts;
}

/**
 * Holds an Esplora transaction against the node's JSON of it (`t`, from `getblock <hash> 2` or
 * `getrawtransaction <txid> true`): version, sizes, every output's script, value and address, every input's
 * outpoint, sequence, scriptSig, witness and the output it spends (from `outputs`), and the fee.
 */
export function expectTxAsNode(tx: any, t: any, outputs: Map<string, any>): void {
  expect(tx.txid).toBe(t.txid);
  expect(tx.version).toBe(t.version);
  expect(tx.locktime).toBe(t.locktime);
  expect(tx.size).toBe(t.size);
  if (t.weight !== undefined) expect(tx.weight).toBe(t.weight);
  expect(Math.ceil(tx.weight / 4)).toBe(t.vsize);
  expect(tx.vout.map((o: any) => [o.scriptpubkey, o.value, o.scriptpubkey_address ?? null])).toEqual(
    (t.vout as any[]).map((o) => [o.scriptPubKey.hex, units(o.value), nodeAddress(o)]),
  );
  const coinbase = Boolean(t.vin[0].coinbase);
  expect(tx.vin.map((i: any) => i.is_coinbase)).toEqual((t.vin as any[]).map(() => coinbase));
  if (coinbase) {
    expect(tx.vin[0]).toMatchObject({
      txid: '0'.repeat(64),
      vout: 0xffffffff,
      prevout: null,
      scriptsig: t.vin[0].coinbase,
    });
    expect(tx.fee).toBe(0);
    return;
  }
  let valueIn = 0;
  (t.vin as any[]).forEach((i, n) => {
    const spent = outputs.get(`${i.txid}:${i.vout}`);
    expect(spent, `the output ${i.txid}:${i.vout} is known`).toBeDefined();
    valueIn += units(spent.value);
    expect(tx.vin[n]).toMatchObject({
      txid: i.txid,
      vout: i.vout,
      sequence: i.sequence,
      scriptsig: i.scriptSig?.hex ?? '',
      prevout: { scriptpubkey: spent.scriptPubKey.hex, value: units(spent.value) },
    });
    if (i.txinwitness?.length) expect(tx.vin[n].witness).toEqual(i.txinwitness);
    else expect(tx.vin[n]).not.toHaveProperty('witness');
  });
  expect(tx.fee).toBe(valueIn - tx.vout.reduce((s: number, o: any) => s + o.value, 0));
}

/** Esplora's script hash of an output script (hex): its SHA-256, in the byte order hashed (not reversed). */
export const scriptHashOf = (scriptHex: string) =>
  createHash('sha256').update(Buffer.from(scriptHex, 'hex')).digest('hex');

/**
 * Holds `/scripthash/:hash…` against `/address/:address…` for the script that pays `address` (as the node wrote
 * it): the same statistics, history and unspent outputs under the hash.
 */
export async function expectScriptHashAsAddress(base: string, address: string, scriptHex: string) {
  const get = async (path: string) => {
    const res = await fetch(`${base}/api${path}`);
    expect(res.status, path).toBe(200);
    return res.json() as Promise<any>;
  };
  const h = scriptHashOf(scriptHex);
  const [byHash, byAddress] = [await get(`/scripthash/${h}`), await get(`/address/${address}`)];
  expect(Object.keys(byHash)).toEqual(['chain_stats', 'mempool_stats', 'scripthash']);
  expect(byHash).toEqual({
    chain_stats: byAddress.chain_stats,
    mempool_stats: byAddress.mempool_stats,
    scripthash: h,
  });
  for (const tail of ['/txs/chain', '/utxo', '/txs/mempool'])
    expect(await get(`/scripthash/${h}${tail}`), tail).toEqual(await get(`/address/${address}${tail}`));
}
