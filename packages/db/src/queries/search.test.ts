import { describe, expect, it } from 'vitest';
import type { Sql } from '../sql.js';
import { drivers, useDatabase } from '../test-support/database.js';
import {
  selectBlocksAtHeights,
  selectHexPrefixMatches,
  selectSearch,
  selectSuggestAddresses,
  selectSuggestPools,
  txidPrefixRange,
} from './search.js';

describe('txidPrefixRange', () => {
  const hex = (b: Buffer) => b.toString('hex');
  it('bounds the first 8 bytes of the txids a hex prefix starts', () => {
    expect(txidPrefixRange('abc').map(hex)).toEqual(['abc0000000000000', 'abd0000000000000']);
    expect(txidPrefixRange('ABf').map(hex)).toEqual(['abf0000000000000', 'ac00000000000000']);
    expect(txidPrefixRange('0'.repeat(20)).map(hex)).toEqual(['0000000000000000', '0000000000000001']);
    // Only f: above every 8-byte value.
    expect(txidPrefixRange('fff').map(hex)).toEqual(['fff0000000000000', 'ffffffffffffffff00']);
    expect(() => txidPrefixRange('')).toThrow(RangeError);
  });
});

describe.each(drivers)('search and suggest queries (%s)', (driver) => {
  const database = useDatabase(driver);

  it('serves every suggest and search lookup from an index (EXPLAIN over 20,000 synthetic rows)', async () => {
    const sql = database();
    await sql.query(
      `INSERT INTO addresses SELECT i, 'dvt1q' || md5(i::text), 0, 0, 0, 0, 0, 0, 0, 0, 0
       FROM generate_series(1, 20000) i`,
      [],
      'test.fill-addresses',
    );
    await sql.query(
      `INSERT INTO txs SELECT ((i / 10)::int8 << 24) + i % 10, decode(md5(i::text) || md5((-i)::text), 'hex'), 1, 0,
              100, 100, 400, 1, 1, 0, 0, 0, 'transfer', '{}'::json, NULL
       FROM generate_series(1, 20000) i`,
      [],
      'test.fill-txs',
    );
    await sql.query(
      `INSERT INTO blocks (height, hash, time, median_time, day, version, merkle_root, bits, nonce, difficulty,
              chainwork, size, tx_count, input_count, output_count, subsidy, fees, reward, value_out,
              op_return_value, pool_id, coinbase_hex, coinbase_tag, has_certificate, cum_tx_count, cum_emitted,
              cum_fees, cum_op_return, raw, emission)
       SELECT i, md5('b' || i) || md5('c' || i), i, i, 0, 1, '', '', 0, 1, '', 1, 1, 1, 1, 0, 0, 0, 0, 0,
              'unknown', '', '', false, 0, 0, 0, 0, '{}'::json, 0
       FROM generate_series(0, 19999) i`,
      [],
      'test.fill-blocks',
    );
    await sql.query(
      `INSERT INTO miner_stats SELECT 'dvt1q' || md5(i::text), 1, 0, i, i FROM generate_series(1, 20000, 2) i`,
      [],
      'test.fill-miners',
    );
    await sql.exec('ANALYZE', 'test.analyze');
    const plans: Record<string, string> = {};
    const explaining = {
      ...sql,
      query: async (text: string, params?: readonly unknown[], name?: string) => {
        const rows = await sql.query<Record<string, string>>(`EXPLAIN ${text}`, params, name);
        // A statement explained more than once (one per shape of a search) keeps every plan.
        const key = name ?? text;
        plans[key] = [plans[key], ...rows.map((r) => Object.values(r)[0])].filter(Boolean).join('\n');
        return [];
      },
    } as unknown as Sql;
    await selectHexPrefixMatches(explaining, 'abc', 10);
    await selectHexPrefixMatches(explaining, `${'ab'.repeat(8)}c`, 10);
    await selectSuggestAddresses(explaining, 'dvt1qab', 10);
    await selectSuggestPools(explaining, 'fou', 10);
    await selectBlocksAtHeights(explaining, [12, 120, 1200]);
    const term = { height: null, hash: null, addresses: [], labelLimit: 20 };
    // A txid or block hash (also address-shaped), a height, an address in either case, a name.
    await selectSearch(explaining, {
      ...term,
      text: 'ab'.repeat(32),
      hash: 'ab'.repeat(32),
      addresses: ['ab'.repeat(32)],
    });
    await selectSearch(explaining, { ...term, text: '1200', height: 1200 });
    await selectSearch(explaining, { ...term, text: 'DVT1QABC', addresses: ['DVT1QABC', 'dvt1qabc'] });
    await selectSearch(explaining, { ...term, text: 'foundry' });
    expect(Object.keys(plans).sort()).toEqual([
      'search.all',
      'search.blocks-at-heights',
      'suggest.addresses',
      'suggest.hex',
      'suggest.hex-long',
      'suggest.pools',
    ]);
    for (const [name, plan] of Object.entries(plans)) {
      expect(plan, `${name}:\n${plan}`).not.toMatch(/Seq Scan on (blocks|txs|addresses|miner_stats)\b/);
    }
    // The prefix is the index condition itself (a range on the key), not a filter over an index walk.
    const served = (table: string, column: string, from: string, to: string) =>
      new RegExp(
        `Index (Only )?Scan using \\w+ on ${table}\\b.*\\n\\s+Index Cond: \\(\\(${column} >= '${from}'::text\\) AND \\(${column} < '${to}'::text\\)\\)`,
      );
    expect(plans['suggest.hex']).toMatch(served('blocks', 'hash', 'abc', 'abd'));
    // A txid prefix is a range over the index on the txids' first 8 bytes; longer prefixes are rechecked.
    // Few rows match here, so PostgreSQL may read them through a bitmap and sort them; on a large chain
    // ORDER BY … LIMIT walks the index in order. Either way the range is the index condition.
    expect(plans['suggest.hex']).toMatch(/(Bitmap Index Scan on|Index Scan using) txs_txid\b/);
    expect(plans['suggest.hex']).toContain(
      "Index Cond: ((SUBSTRING(txid FROM 1 FOR 8) >= '\\xabc0000000000000'::bytea) AND (SUBSTRING(txid FROM 1 FOR 8) < '\\xabd0000000000000'::bytea))",
    );
    expect(plans['suggest.addresses']).toMatch(served('addresses', 'address', 'dvt1qab', 'dvt1qac'));
    for (const name of ['suggest.hex', 'suggest.addresses'])
      expect(plans[name], name).not.toMatch(/^\s*(->\s*)?Filter:/m);
    // A prefix longer than the indexed 8 bytes: the same range, the rest of the prefix rechecked.
    expect(plans['suggest.hex-long']).toContain(
      "Index Cond: ((SUBSTRING(txid FROM 1 FOR 8) >= '\\xabababababababab'::bytea) AND (SUBSTRING(txid FROM 1 FOR 8) < '\\xabababababababac'::bytea))",
    );
    expect(plans['suggest.hex-long']).toMatch(
      /Filter: \(encode\(txid, 'hex'::text\) ~~ 'ababababababababc%'::text\)/,
    );
    // The detector works: a prefix test the btree cannot serve is a sequential scan on the same data.
    const bad = await sql.query<Record<string, string>>(
      "EXPLAIN SELECT txid FROM txs WHERE encode(txid, 'hex') LIKE 'abc%' LIMIT 10",
      [],
      'test.explain-bad',
    );
    expect(bad.map((r) => Object.values(r)[0]).join('\n')).toMatch(/Seq Scan on txs/);
  });
});
