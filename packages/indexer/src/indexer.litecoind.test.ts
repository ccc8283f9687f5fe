import { canonicalDump, checkInvariants, createSqlStore, type Sql } from '@explorer/db';
import {
  type Litecoind,
  litecoindAvailable,
  openTestDatabase,
  startLitecoind,
  type TestDatabase,
  testDrivers,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient } from './node-client.js';
import { indexOnce } from './test-support/fixtures.js';

const unavailable = litecoindAvailable();
if (unavailable) console.log(`[indexer] litecoind tests skipped: ${unavailable}`);
// The production path is PostgreSQL; PGlite stands in where no server answers.
const driver = testDrivers().at(-1)!;

interface Scan {
  unspents: { txid: string; vout: number; amount: number }[];
}
interface TxOutSetInfo {
  txouts: number;
  total_amount: number;
}

const sats = (coins: number) => Math.round(coins * 1e8);

/** One sync of `sql` from the node, by an indexer that stops after it. */
const sync = (sql: Sql, node: Litecoind) => indexOnce(sql, createNodeClient({ url: node.rpcUrl }));

/** Compares the index with the node's own UTXO set: totals, and every address's unspent outputs. */
async function expectMatchesNode(sql: Sql, node: Litecoind) {
  const info = await node.rpc<TxOutSetInfo>('gettxoutsetinfo');
  // The node keeps the genesis coinbase out of its UTXO set; OP_RETURN outputs are never in it.
  const [ours] = await sql.query<{ n: number; total: string }>(
    `SELECT count(*)::int4 AS n, COALESCE(sum(o.value), 0)::numeric AS total FROM utxos u
     JOIN outputs o USING (tx_no, vout) WHERE o.script_type <> 'nulldata' AND u.tx_no >= 1 << 24`,
  );
  expect({ n: ours!.n, total: Number(ours!.total) }).toEqual({
    n: info.txouts,
    total: sats(info.total_amount),
  });

  const addresses = await sql.query<{ address: string; balance: number; utxo_count: number }>(
    `SELECT address, balance, utxo_count FROM addresses WHERE first_seen_height > 0 ORDER BY address`,
  );
  expect(addresses.length).toBeGreaterThan(5);
  for (const a of addresses) {
    const scan = await node.rpc<Scan>('scantxoutset', 'start', [`addr(${a.address})`]);
    const theirs = scan.unspents.map((u) => `${u.txid}:${u.vout}:${sats(u.amount)}`).sort();
    const utxos = await sql.query<{ k: string }>(
      `SELECT encode(t.txid, 'hex') || ':' || u.vout || ':' || o.value AS k FROM utxos u
       JOIN outputs o USING (tx_no, vout) JOIN txs t USING (tx_no) JOIN addresses a ON a.id = u.address_id
       WHERE a.address = $1 ORDER BY 1`,
      [a.address],
    );
    expect({ address: a.address, utxos: utxos.map((u) => u.k).sort() }).toEqual({
      address: a.address,
      utxos: theirs,
    });
    expect(a.balance).toBe(scan.unspents.reduce((s, u) => s + sats(u.amount), 0));
    expect(a.utxo_count).toBe(theirs.length);
  }
}

/**
 * Whether a transaction of the node is MWEB's: an MWEB input or output (written in a shape of its own), or the
 * block's HogEx (serialized with MWEB's flag, paying the HogAddr).
 */
const touchesMweb = (t: Record<string, unknown>) =>
  [...(t.vin as Record<string, unknown>[]), ...(t.vout as Record<string, unknown>[])].some(
    (e) =>
      e.ismweb !== false ||
      (e.scriptPubKey as { type?: string } | undefined)?.type === 'witness_mweb_hogaddr',
  );

/**
 * Every transaction's stored JSON against the node's `getblock <hash> 2`, as text; every transaction without
 * MWEB inputs or outputs is kept as its bytes and a recipe. Returns how many are kept each way.
 */
async function expectTxJsonMatchesNode(sql: Sql, node: Litecoind): Promise<{ bytes: number; json: number }> {
  const store = createSqlStore(sql);
  const tip = await node.rpc<number>('getblockcount');
  const plain: string[] = [];
  for (let h = 0; h <= tip; h++) {
    const hash = await node.rpc<string>('getblockhash', h);
    const block = await node.rpc<{ tx: Record<string, unknown>[] }>('getblock', hash, 2);
    for (const t of block.tx) {
      // As text: the same keys in the same order, the same numbers.
      expect(JSON.stringify(await store.getTxRaw(t.txid as string))).toBe(JSON.stringify(t));
      if (!touchesMweb(t)) plain.push(t.txid as string);
    }
  }
  const [asJson] = await sql.query<{ txid: string }>(
    `SELECT encode(txid, 'hex') AS txid FROM txs WHERE raw_bytes IS NULL AND encode(txid, 'hex') = ANY($1)`,
    [plain],
  );
  expect(asJson).toBeUndefined();
  const [kept] = await sql.query<{ bytes: number; json: number }>(
    `SELECT count(*) FILTER (WHERE raw_bytes IS NOT NULL)::int4 AS bytes,
            count(*) FILTER (WHERE raw_bytes IS NULL)::int4 AS json FROM txs`,
  );
  return kept!;
}

describe.skipIf(unavailable !== null)(`indexer against litecoind regtest (${driver})`, () => {
  let node: Litecoind;
  let db: TestDatabase;

  beforeAll(async () => {
    node = await startLitecoind();
    db = await openTestDatabase(driver);
  });
  afterAll(async () => {
    await node?.stop();
    await db?.drop();
  });

  it('indexes legacy, p2sh-segwit, bech32 and MWEB activity exactly as the node holds it', async () => {
    await node.mine(101);
    await node.prepareMweb();
    const legacy = await node.newAddress('legacy');
    const wrapped = await node.newAddress('p2sh-segwit');
    const bech32 = await node.newAddress('bech32');
    const mweb = await node.newAddress('mweb');
    await node.send(legacy, 1.5);
    await node.send(wrapped, 2.25);
    await node.send(bech32, 3);
    await node.mine(2);
    // Spending again makes the wallet spend change and earlier outputs.
    await node.send(bech32, 0.75);
    await node.send(legacy, 4.125);
    await node.mine(1);
    const height = await node.rpc<number>('getblockcount');
    await node.mine(436 - height);
    await node.send(mweb, 0.5);
    await node.send(wrapped, 1.1);
    await node.mine(6);

    const r = await sync(db.sql, node);
    expect(r.status.state).toBe('synced');
    expect(r.status.tipHeight).toBe(await node.rpc<number>('getblockcount'));
    expect(await checkInvariants(db.sql)).toEqual([]);
    await expectMatchesNode(db.sql, node);
    // MWEB's transactions (the HogEx, the peg-in) keep their JSON; every other one its bytes.
    const kept = await expectTxJsonMatchesNode(db.sql, node);
    expect(kept.json).toBeGreaterThan(0);
    expect(kept.bytes).toBeGreaterThan(kept.json);

    const [hogex] = await db.sql.query<{ n: number }>(
      `SELECT count(*)::int4 AS n FROM utxos JOIN outputs USING (tx_no, vout) WHERE script_type = 'witness_mweb_hogaddr'`,
    );
    expect(hogex?.n).toBe(1);
  });

  it('follows an invalidateblock reorg and ends equal to a fresh index of the final chain', async () => {
    const tip = await node.rpc<number>('getblockcount');
    const target = await node.rpc<string>('getblockhash', tip - 2);
    await node.rpc('invalidateblock', target);
    // The removed blocks' transactions go back to the mempool and are mined again in other blocks.
    await node.send(await node.newAddress('bech32'), 0.3);
    await node.mine(4);

    const r = await sync(db.sql, node);
    expect(r.rolledBack).toBe(3);
    expect(r.status.tipHeight).toBe(tip + 1);
    expect(await checkInvariants(db.sql)).toEqual([]);
    await expectMatchesNode(db.sql, node);

    const fresh = await openTestDatabase(driver);
    try {
      await sync(fresh.sql, node);
      const [a, b] = [await canonicalDump(db.sql), await canonicalDump(fresh.sql)];
      expect(a).toEqual(b);
    } finally {
      await fresh.drop();
    }
  });
});
