import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { createExplorerApi, v1Routes } from '@explorer/core';
import { createPgSql, createSqlStore, type Sql } from '@explorer/db';
import { pgSkipReason } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const skip = pgSkipReason();
if (skip) console.log(`plan-cache-pg: ${skip}`);

// A cold request names a transaction, block or address nobody asked for lately, so no cache answers it and
// its statements run on a connection of the pool. PostgreSQL plans a prepared statement anew on each of its
// first five executions, then keeps one plan for it when the kept plan costs no more than one made for the
// call: a statement whose parameters hide how many rows it reads (an array of addresses, a LIMIT given as a
// parameter) never gets there, and planned every call again. Every statement of every cold read must settle.
describe.skipIf(skip !== null)('PostgreSQL keeps one plan for each statement of a cold read (pg)', () => {
  let f: ChainFixture;
  let one: Sql;
  /** The texts of each named statement the API ran, by query name. */
  const texts = new Map<string, Set<string>>();

  beforeAll(async () => {
    f = await createChainFixture('pg', { seed: 'plans', blocks: 150, txPerBlock: 8 });
    // One connection: every statement is prepared on it, as on each connection of a server's pool.
    one = createPgSql({ connectionString: f.db.url!, schema: f.db.schema, max: 1 });
  });
  afterAll(async () => {
    await one?.close();
    await f?.close();
  });

  it('runs each statement on a kept plan once it ran five times', async () => {
    const recording: Sql = {
      ...one,
      query(text, params, name) {
        if (name) texts.set(name, (texts.get(name) ?? new Set()).add(text));
        return one.query(text, params, name);
      },
    };
    const api = createExplorerApi({
      store: createSqlStore(recording),
      routes: v1Routes,
      node: null,
      // No in-process cache: each request reads the database, as a cold one does.
      config: { publicBaseUrl: 'http://127.0.0.1', cacheEntries: 0 },
    });
    const pick = async (text: string) =>
      (await f.db.sql.query<{ x: string }>(text, [], 'test.sample')).map((r) => r.x);
    const txids = await pick(`SELECT encode(txid, 'hex') AS x FROM txs ORDER BY tx_no DESC LIMIT 8`);
    const blocks = await pick('SELECT hash AS x FROM blocks ORDER BY height DESC LIMIT 8');
    const addresses = await pick('SELECT address AS x FROM addresses ORDER BY tx_count DESC LIMIT 40');
    const classes: [string, (i: number) => string][] = [
      ['tx', (i) => `/v1/txs/${txids[i]}`],
      ['tx flow', (i) => `/v1/txs/${txids[i]}/flow`],
      ['tx status', (i) => `/v1/txs/${txids[i]}/status`],
      ['outspends', (i) => `/v1/txs/${txids[i]}/outspends`],
      ['inputs', (i) => `/v1/txs/${txids[i]}/inputs`],
      ['outputs', (i) => `/v1/txs/${txids[i]}/outputs`],
      ['block by hash', (i) => `/v1/blocks/${blocks[i]}`],
      ['block txs', (i) => `/v1/blocks/${blocks[i]}/txs`],
      ['address summary', (i) => `/v1/addresses/${addresses[i]}`],
      ['address txs', (i) => `/v1/addresses/${addresses[i]}/txs`],
      ['address UTXOs', (i) => `/v1/addresses/${addresses[i]}/utxos`],
      ['many addresses', (i) => `/v1/addresses?addresses=${addresses.slice(i, i + 3).join(',')}`],
      ['many addresses txs', (i) => `/v1/addresses/txs?addresses=${addresses.slice(i, i + 20).join(',')}`],
      ['many addresses UTXOs', (i) => `/v1/addresses/utxos?addresses=${addresses.slice(i, i + 2).join(',')}`],
      ['search by txid', (i) => `/v1/search?q=${txids[i]}`],
      ['search by address', (i) => `/v1/search?q=${addresses[i]}`],
    ];
    for (const [name, path] of classes) {
      for (let i = 0; i < 8; i++) {
        const res = await api.handle(new Request(`http://127.0.0.1${path(i)}`));
        expect(res.status, `${name}: ${path(i)}`).toBe(200);
        await res.arrayBuffer();
      }
    }
    const prepared = await one.query<{ statement: string; generic: number; custom: number }>(
      'SELECT statement, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements',
      [],
      'test.prepared',
    );
    // Per statement text (a statement may have a few: a page's row count, how many addresses are asked), once
    // it ran more than five times.
    const settled: Record<string, string> = {};
    for (const [name, own] of texts) {
      if (name.startsWith('state.')) continue;
      const runs = prepared.filter((p) => own.has(p.statement) && p.generic + p.custom > 5);
      if (runs.length === 0) continue;
      const custom = runs.reduce((n, r) => n + r.custom, 0);
      settled[name] = runs.every((r) => r.generic > 0) ? 'kept' : `planned ${custom} times`;
    }
    expect(Object.keys(settled).length).toBeGreaterThan(12);
    expect(settled).toEqual(Object.fromEntries(Object.keys(settled).map((n) => [n, 'kept'])));
  });
});
