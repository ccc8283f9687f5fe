import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../open.js';

// PGlite runs PostgreSQL in single-user mode, where no checkpointer runs: left alone, its WAL only grows (608 MB
// of it beside 410 MB of tables after an embedded sync of 90,000 transactions). The driver checkpoints.

const root = mkdtempSync(join(tmpdir(), 'explorer-pglite-wal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const MB = 1024 * 1024;
const walBytes = (pgdata: string) =>
  readdirSync(join(pgdata, 'pg_wal'))
    .filter((f) => /^[0-9A-F]{24}$/.test(f))
    .reduce((sum, f) => sum + statSync(join(pgdata, 'pg_wal', f)).size, 0);

describe('the embedded database’s WAL', () => {
  it('stays a few segments, however much is written', async () => {
    const dataDir = join(root, 'data');
    const sql = await openDatabase({ dataDir, migrate: false });
    try {
      await sql.exec('CREATE TABLE filler (id serial PRIMARY KEY, payload text)', 'test.create');
      const lsn = async () =>
        Number(
          (
            await sql.query<{ b: number }>(
              "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::int8 AS b",
            )
          )[0]?.b,
        );
      const from = await lsn();
      // About 2 MB of WAL per transaction, as an indexer's batches write, until 100 MB were written.
      while ((await lsn()) - from < 100 * MB)
        await sql.transaction(async (tx) => {
          await tx.query(
            'INSERT INTO filler (payload) SELECT repeat(md5(g::text), 8) FROM generate_series(1, 5000) g',
            [],
            'test.fill',
          );
        });
      const wal = walBytes(join(dataDir, 'pgdata'));
      console.log(
        `[pglite wal] ${(((await lsn()) - from) / MB) | 0} MB of WAL written, ${wal / MB} MB in pg_wal`,
      );
      // max_wal_size (48 MB) of recycled segments and the one being written; without checkpoints, ten or more.
      expect(wal).toBeLessThanOrEqual(64 * MB);
    } finally {
      await sql.close();
    }
  }, 300_000);
});
