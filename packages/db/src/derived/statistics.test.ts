import { describe, expect, it } from 'vitest';
import { drivers, useDatabase } from '../test-support/database.js';
import { statisticsStale } from './index.js';

describe.each(drivers)('statisticsStale (%s)', (driver) => {
  const database = useDatabase(driver);

  it('is stale until the columns of txs have statistics, and again once the chain grew past them', async () => {
    const sql = database();
    // An empty index needs none.
    expect(await statisticsStale(sql, 0.1)).toBe(false);
    const fill = async (from: number, to: number) => {
      await sql.query(
        `INSERT INTO txs SELECT ((i / 10)::int8 << 24) + i % 10, decode(md5(i::text) || md5((-i)::text), 'hex'), 1,
                0, 100, 100, 400, 1, 1, 0, 0, 0, 'transfer', '{}'::json, NULL
         FROM generate_series($1::int, $2::int) i`,
        [from, to],
        'test.fill-txs',
      );
      await sql.query(
        `INSERT INTO blocks (height, hash, time, median_time, day, version, merkle_root, bits, nonce, difficulty,
                chainwork, size, tx_count, input_count, output_count, subsidy, fees, reward, value_out,
                op_return_value, pool_id, coinbase_hex, coinbase_tag, has_certificate, cum_tx_count, cum_emitted,
                cum_fees, cum_op_return, raw, emission)
         VALUES ($1::int4, md5($1::int4::text) || md5($1::int4::text), 0, 0, 0, 1, '', '', 0, 1, '', 1, 1, 1, 1, 0, 0, 0, 0, 0,
                'unknown', '', '', false, $2, 0, 0, 0, '{}'::json, 0)`,
        [Math.floor(to / 10), to],
        'test.fill-block',
      );
    };
    await fill(1, 5_000);
    expect(await statisticsStale(sql, 0.1)).toBe(true);
    // A VACUUM counts the rows (reltuples) but gathers no column statistics: still stale.
    await sql.exec('VACUUM txs', 'test.vacuum');
    expect(await statisticsStale(sql, 0.1)).toBe(true);
    await sql.exec('ANALYZE txs', 'test.analyze');
    expect(await statisticsStale(sql, 0.1)).toBe(false);
    // Grown by less than a tenth: fresh enough; by more (and 1,000 or more transactions): stale again.
    await fill(5_001, 5_300);
    expect(await statisticsStale(sql, 0.1)).toBe(false);
    await fill(5_301, 7_000);
    expect(await statisticsStale(sql, 0.1)).toBe(true);
  });
});
