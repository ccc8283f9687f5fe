import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The devnet writes Bitcoin Core's JSON both ways: `address` and `fee` (Core ≥ 22), `addresses` and
// `reqSigs` without `fee` (Core ≤ 0.21). Every transaction is kept as its bytes, and served back as the text
// the node wrote, through the SQL that reads it.
describe.each([
  { addressFormat: 'address', includeFee: true },
  { addressFormat: 'addresses', includeFee: false },
] as const)('/v1/txs/{txid}/raw of Core transactions kept as bytes (pglite, $addressFormat)', (style) => {
  let f: ChainFixture;
  beforeAll(async () => {
    f = await createChainFixture('pglite', {
      seed: 'tx-raw',
      blocks: 40,
      txPerBlock: 6,
      dialect: 'bitcoin',
      ...style,
    });
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });

  it("serves every transaction's JSON as the node wrote it in its block, and keeps each as bytes", async () => {
    let count = 0;
    for (let h = 0; h <= f.devnet.height(); h++) {
      const hash = (await f.devnet.rpc('getblockhash', [h])) as string;
      const block = (await f.devnet.rpc('getblock', [hash, 2])) as { tx: Record<string, unknown>[] };
      for (const t of block.tx) {
        const res = await f.get(`/v1/txs/${t.txid}/raw`);
        expect(res.status).toBe(200);
        expect(JSON.stringify(res.body.raw)).toBe(JSON.stringify(t));
        count++;
      }
    }
    const [kept] = await f.db.sql.query<{ bytes: number; all: number }>(
      `SELECT count(*) FILTER (WHERE raw_bytes IS NOT NULL AND raw IS NOT NULL)::int4 AS bytes, count(*)::int4 AS all FROM txs`,
    );
    expect(kept).toEqual({ bytes: count, all: count });
  });
});
