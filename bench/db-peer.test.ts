import { existsSync } from 'node:fs';
import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { pgSkipReason } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// bench/db-peer.mjs reads the built packages, as the benchmarks do.
const built = existsSync(new URL('../packages/core/dist/index.js', import.meta.url));
// A plain .mjs script without declarations, imported by a name tsc does not resolve.
const module = './db-peer.mjs';
const peer: any = built ? await import(module) : null;
const reason =
  (built ? null : 'the packages are not built (run pnpm build)') ??
  pgSkipReason() ??
  peer.pgbenchSkipReason();
if (reason) console.log(`[db-peer] ${reason}: PostgreSQL part skipped`);

describe.skipIf(!built)('the pgbench script of a request', () => {
  it('sends each parameter as node-postgres would, NULL in place', () => {
    const { script, defines } = peer.pgbenchScript([
      {
        text: 'SELECT * FROM t WHERE a = $1 AND b = ANY($2) AND c IS NOT DISTINCT FROM $3',
        params: [7n, [1, 2], null],
      },
      { text: 'SELECT $1::bytea, $10::text', params: [Buffer.from([1, 255]), 0, 0, 0, 0, 0, 0, 0, 0, 'x'] },
    ]);
    expect(script).toBe(
      'SELECT * FROM t WHERE a = :s0p1 AND b = ANY(:s0p2) AND c IS NOT DISTINCT FROM NULL;\nSELECT :s1p1::bytea, :s1p10::text;\n',
    );
    expect(defines).toEqual(['s0p1=7', 's0p2={"1","2"}', 's1p1=\\x01ff', 's1p10=x']);
  });
});

describe.skipIf(reason !== null)('the database peer of an endpoint (pgbench, PostgreSQL)', () => {
  let f: ChainFixture;
  let url: string;
  beforeAll(async () => {
    f = await createChainFixture('pg');
    // libpq reads `+` literally: the space is written %20.
    url = `${f.db.url}${f.db.url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${f.db.schema}`)}`;
  });
  afterAll(() => f?.close());

  it('replays the statements of an uncached request, and says which endpoints answer from memos', async () => {
    const tx = (await f.get('/v1/blocks/60')).body.block;
    const byPath = await peer.captureStatements(url, [`/v1/blocks/60/txs`, `/v1/search?q=${tx.hash}`]);
    const page = byPath.get('/v1/blocks/60/txs');
    expect(page.statements.length).toBeGreaterThan(0);
    expect(page.statements.every((s: { name?: string }) => s.name && s.name !== 'state.read')).toBe(true);
    const result = peer.pgbench(url, page.statements, { connections: 2, seconds: 1 });
    expect(result.tps).toBeGreaterThan(0);
    expect(result.statements).toBe(page.statements.length);
    expect(byPath.get(`/v1/search?q=${tx.hash}`).statements.map((s: { name: string }) => s.name)).toContain(
      'search.all',
    );
  });
});
