import { checkInvariants, readIndexerState, txNo } from '@explorer/db';
import { openTestDatabase, type TestDatabase, testDrivers } from '@explorer/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefinitions } from '../pools.js';
import { applyBlocks, IngestState, writePrepared } from './apply.js';
import { MissingPrevoutError } from './errors.js';
import type { ParsedBlock, ParsedTx } from './parse.js';

const defs = createDefinitions([], []);
const hex64 = (n: number) => n.toString(16).padStart(64, '0');

function tx(id: number, index: number, spends: [number, number][], outs: [string, number][]): ParsedTx {
  const txid = hex64(id);
  return {
    txid,
    index,
    version: 2,
    locktime: 0,
    size: 200,
    vsize: 200,
    weight: 800,
    isCoinbase: spends.length === 0,
    inputs:
      spends.length === 0
        ? [{ vin: 0, prevTxid: null, prevVout: null, sequence: 0xffffffff }]
        : spends.map(([t, v], vin) => ({ vin, prevTxid: hex64(t), prevVout: v, sequence: 0xfffffffe })),
    outputs: outs.map(([address, value], vout) => ({
      vout,
      value: BigInt(value),
      address,
      scriptType: 'witness_v0_keyhash',
      scriptHex: '0014',
    })),
    raw: { txid },
  };
}

function block(height: number, txs: ParsedTx[]): ParsedBlock {
  return {
    hash: hex64(1_000_000 + height),
    height,
    prevHash: height === 0 ? null : hex64(1_000_000 + height - 1),
    time: 1_700_000_000 + height * 60,
    medianTime: 1_700_000_000 + height * 60,
    version: 0x20000000,
    merkleRoot: hex64(0),
    bits: '207fffff',
    nonce: 0,
    difficulty: 1,
    chainwork: hex64(height + 1),
    size: 1000,
    strippedSize: 1000,
    weight: 4000,
    txs,
    coinbaseHex: '00',
    scheduledSubsidy: null,
    certificate: null,
    raw: { height },
  };
}

// Coinbases pay 50 to "miner"; block 1 spends block 0's coinbase to alice (30) and bob (20).
const b0 = block(0, [tx(1, 0, [], [['miner', 50]])]);
const b1 = block(1, [
  tx(2, 0, [], [['miner', 50]]),
  tx(
    3,
    1,
    [[1, 0]],
    [
      ['alice', 30],
      ['bob', 20],
    ],
  ),
]);

describe.each(testDrivers())('writing prepared batches (%s)', (driver) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await openTestDatabase(driver);
  });
  afterEach(async () => {
    await db.drop();
  });

  const balances = () =>
    db.sql.query<{ address: string; balance: number }>(
      'SELECT address, balance FROM addresses ORDER BY address',
    );

  it('leaves an output spent in its own batch out of the unspent ones, and takes one of an earlier batch out on write', async () => {
    const state = new IngestState();
    const first = await state.prepare(db.sql, [b0, b1], defs);
    // The coinbase of block 0 is spent in the same batch: written, but never unspent.
    expect(first.rows.spends).toEqual([]);
    expect(first.rows.outputs.some((o) => o.txNo === txNo(0, 0))).toBe(true);
    expect(first.rows.utxos.map((u) => [u.txNo, u.vout])).toEqual([
      [txNo(1, 0), 0],
      [txNo(1, 1), 0],
      [txNo(1, 1), 1],
    ]);
    await db.sql.transaction((t) => writePrepared(t, first));
    state.committed(first.seq);

    const b2 = block(2, [tx(4, 0, [], [['miner', 50]]), tx(5, 1, [[3, 0]], [['bob', 29]])]);
    const second = await state.prepare(db.sql, [b2], defs);
    expect(second.rows.spends).toEqual([{ prevTxNo: txNo(1, 1), prevVout: 0, height: 2 }]);
    await db.sql.transaction((t) => writePrepared(t, second));
    expect(await balances()).toEqual([
      { address: 'alice', balance: 0 },
      { address: 'bob', balance: 49 },
      { address: 'miner', balance: 100 },
    ]);
    expect(await checkInvariants(db.sql)).toEqual([]);
  });

  it('refuses a block that spends an output the index does not hold, and writes nothing', async () => {
    await applyBlocks(db.sql, [b0], defs);
    const bad = block(1, [tx(2, 0, [], [['miner', 50]]), tx(3, 1, [[99, 0]], [['alice', 1]])]);
    await expect(db.sql.transaction((t) => applyBlocks(t, [bad], defs))).rejects.toThrow(MissingPrevoutError);
    expect((await readIndexerState(db.sql)).tip_height).toBe(0);
    expect(await balances()).toEqual([{ address: 'miner', balance: 50 }]);
  });

  it('catches a double spend across two batches in flight when the second is written', async () => {
    await applyBlocks(db.sql, [b0], defs);
    const state = new IngestState();
    // Both batches are prepared before either is written, as the pipeline does.
    const first = await state.prepare(db.sql, [b1], defs);
    const again = block(2, [tx(4, 0, [], [['miner', 50]]), tx(6, 1, [[1, 0]], [['carol', 50]])]);
    const second = await state.prepare(db.sql, [again], defs);
    await db.sql.transaction((t) => writePrepared(t, first));
    await expect(db.sql.transaction((t) => writePrepared(t, second))).rejects.toThrow(
      /spend outputs the index does not hold as unspent/,
    );
    expect((await readIndexerState(db.sql)).tip_height).toBe(1);
    expect(await checkInvariants(db.sql)).toEqual([]);
  });

  it('names the broken invariant when a row of a derived table is corrupted', async () => {
    await applyBlocks(db.sql, [b0, b1], defs);
    const corruptions: [statement: string, invariant: RegExp][] = [
      ['UPDATE miner_stats SET blocks = blocks + 1', /^miner totals/],
      ['UPDATE pool_stats SET last_height = 0', /^pool totals/],
      ['UPDATE daily_stats SET proof_bytes = 1', /^daily rollups/],
      ['UPDATE daily_pool_blocks SET reward = 0', /^daily pool blocks/],
      ['DELETE FROM daily_miner_blocks', /^daily miner blocks/],
      ["UPDATE addresses SET utxo_count = 7 WHERE address = 'bob'", /^address totals equal/],
      ['UPDATE inputs SET prev_vout = prev_vout + 5 WHERE prev_tx_no IS NOT NULL', /^every input spends/],
      [
        'INSERT INTO utxos SELECT tx_no, vout, address_id FROM outputs ON CONFLICT DO NOTHING',
        /^the unspent outputs are exactly/,
      ],
      ['UPDATE outputs SET address_id = 999999 WHERE address_id IS NOT NULL', /^every output belongs/],
      ['UPDATE txs SET txid = (SELECT txid FROM txs ORDER BY tx_no LIMIT 1)', /^no txid is stored twice/],
      ['UPDATE inputs SET prev_tx_no = NULL, prev_vout = NULL WHERE tx_no & 16777215 <> 0', /^the coinbase/],
      ['UPDATE address_txs SET balance = balance + 1', /^each history row/],
    ];
    for (const [statement, invariant] of corruptions) {
      let found: string[] = [];
      // Each corruption is undone by failing its transaction.
      await db.sql
        .transaction(async (t) => {
          await t.query(statement);
          found = (await checkInvariants(t)).map((v) => v.invariant);
          throw new Error('undo');
        })
        .catch(() => {});
      expect(found, statement).toContainEqual(expect.stringMatching(invariant));
    }
    expect(await checkInvariants(db.sql)).toEqual([]);
  });

  it('refuses to write a batch whose parent is no longer the tip', async () => {
    const state = new IngestState();
    const first = await state.prepare(db.sql, [b0], defs);
    await applyBlocks(db.sql, [b0], defs);
    await expect(db.sql.transaction((t) => writePrepared(t, first))).rejects.toThrow(/indexed tip moved/);
  });
});
