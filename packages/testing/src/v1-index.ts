import { migrate, migrations, type Sql } from '@explorer/db';

/**
 * Makes `sql` (an empty database) what a deployment before storage v2 holds: the schema up to version 9, an
 * index of `blocks` blocks (heights from 0, indexer tip at the last) and an API key beside it.
 * @example await seedV1Index(sql, 3)
 */
export async function seedV1Index(sql: Sql, blocks: number): Promise<void> {
  await migrate(
    sql,
    migrations.filter((m) => m.version <= 9),
  );
  await sql.query(
    `INSERT INTO blocks (height, hash, prev_hash, time, median_time, day, version, merkle_root, bits, nonce,
       difficulty, chainwork, size, tx_count, input_count, output_count, subsidy, emission, fees, reward,
       value_out, op_return_value, pool_id, coinbase_hex, coinbase_tag, has_certificate, cum_tx_count,
       cum_emitted, cum_fees, cum_op_return, raw)
     SELECT h, md5(h::text), md5((h - 1)::text), 1700000000 + h, 1700000000 + h, 19675, 1, md5('m'), '1d00ffff',
       0, 1, '00', 200, 1, 1, 1, 5000, 5000, 0, 5000, 5000, 0, 'unknown', '00', '', false, h + 1, 5000 * (h + 1),
       0, 0, '{}'
     FROM generate_series(0, $1::int4 - 1) h`,
    [blocks],
  );
  await sql.query('UPDATE indexer_state SET tip_height = $1, tx_tip_height = $1', [blocks - 1]);
  await sql.query(
    `INSERT INTO api_keys (id, name, key_hash) VALUES ('abcdefghij', 'dashboard', repeat('a', 64))`,
  );
}
