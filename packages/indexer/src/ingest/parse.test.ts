import { describe, expect, it } from 'vitest';
import { MalformedBlockError } from './errors.js';
import { outputAddress, parseBlock, toBaseUnits } from './parse.js';

const h = (c: string) => c.repeat(64);

function block(tx: unknown[], extra: Record<string, unknown> = {}) {
  return {
    hash: h('a'),
    height: 5,
    previousblockhash: h('b'),
    time: 100,
    confirmations: 3,
    nextblockhash: h('c'),
    tx,
    ...extra,
  };
}

const coinbase = {
  txid: h('1'),
  vin: [{ coinbase: '0405', sequence: 1 }],
  vout: [{ value: 12.5, n: 0, scriptPubKey: { type: 'pubkeyhash', hex: '76a9', addresses: ['mLegacy'] } }],
  size: 100,
};

describe('parseBlock', () => {
  it('reads both the address and the legacy addresses[] forms, and keeps unknown script types', () => {
    const b = parseBlock(
      block([
        coinbase,
        {
          txid: h('2'),
          vin: [{ txid: h('3'), vout: 1, sequence: 7 }],
          vout: [
            {
              value: 0.1,
              n: 0,
              scriptPubKey: { type: 'witness_v0_keyhash', hex: '0014', address: 'dvt1qmodern' },
            },
            { value: 0.00000001, n: 1, scriptPubKey: { type: 'witness_mweb_hogaddr', hex: '08' } },
            { value: 0, n: 2, scriptPubKey: { type: 'multisig', addresses: ['a1', 'a2'] } },
            { value: 0.3, n: 3, scriptPubKey: {} },
          ],
          size: 200,
          weight: 500,
        },
      ]),
    );
    expect(b.txs[0]!.outputs[0]).toMatchObject({ address: 'mLegacy', value: 1_250_000_000n });
    const outs = b.txs[1]!.outputs;
    expect(outs.map((o) => [o.address, o.scriptType, o.value])).toEqual([
      ['dvt1qmodern', 'witness_v0_keyhash', 10_000_000n],
      [null, 'witness_mweb_hogaddr', 1n],
      [null, 'multisig', 0n],
      [null, 'unknown', 30_000_000n],
    ]);
    expect(b.txs[1]!.vsize).toBe(125);
    expect(b.txs[1]!.inputs[0]).toEqual({ vin: 0, prevTxid: h('3'), prevVout: 1, sequence: 7 });
    expect(b.txs[0]!.isCoinbase).toBe(true);
    expect(b.coinbaseHex).toBe('0405');
  });

  it('stores raw JSON without the fields that change after the block is stored; Core blocks carry no certificate', () => {
    const b = parseBlock(block([coinbase]));
    expect(b.raw).not.toHaveProperty('confirmations');
    expect(b.raw).not.toHaveProperty('nextblockhash');
    expect(b.raw.tx).toEqual([h('1')]);
    expect(b.certificate).toBeNull();
    expect(b.scheduledSubsidy).toBeNull();
    expect(b.chainwork).toBeNull();
  });

  it('refuses what it cannot index at all, with a reason', () => {
    expect(() => parseBlock(null)).toThrow(MalformedBlockError);
    expect(() => parseBlock({ hash: 'zz', height: 1, tx: [] })).toThrow(/no valid hash/);
    expect(() => parseBlock({ hash: h('a'), tx: [coinbase] })).toThrow(/no height/);
    expect(() => parseBlock(block([h('1')]))).toThrow(/verbosity 2/);
    expect(() => parseBlock(block([{ ...coinbase, txid: 'nope' }]))).toThrow(/no valid txid/);
  });

  it('converts coin amounts to exact base units', () => {
    expect(toBaseUnits(0.29)).toBe(29_000_000n);
    expect(toBaseUnits(20999999.9769)).toBe(2_099_999_997_690_000n);
    expect(toBaseUnits('x')).toBe(0n);
    expect(outputAddress({ addresses: ['a', 'b'] })).toBeNull();
  });
});
