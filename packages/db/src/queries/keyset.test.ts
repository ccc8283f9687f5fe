import { addressUtxosKey, blockOutputsKey, poolPayoutsKey, topMinersKey, txsKey } from '@explorer/core';
import { describe, expect, it } from 'vitest';
import { keyset, pageRows } from './keyset.js';

describe('keyset SQL from a cursor key', () => {
  it('compares and orders the key columns downwards for a newest-first list, after the query parameters', () => {
    const params: unknown[] = ['addr'];
    const k = keyset(txsKey, { limit: 20, after: [812345, 3], offset: 0 }, params, 't');
    expect(k.where).toBe('(t.block_height, t.block_index) < ($2, $3)');
    expect(k.order).toBe('ORDER BY t.block_height DESC, t.block_index DESC');
    // limit + 1 rows tell whether another page follows, written into the text so a prepared statement keeps
    // one plan; a cursor ignores any offset.
    expect(k.tail).toBe('ORDER BY t.block_height DESC, t.block_index DESC LIMIT 21');
    expect(params).toEqual(['addr', 812345, 3]);
  });

  it('compares upwards for a list in natural order, and pages the first page by offset', () => {
    const params: unknown[] = [];
    expect(keyset(blockOutputsKey, { limit: 5, after: [2, 1], offset: 0 }, params, 'o').where).toBe(
      '(o.block_index, o.vout) > ($1, $2)',
    );
    const first: unknown[] = [];
    const k = keyset(blockOutputsKey, { limit: 5, after: null, offset: 40 }, first, 'o');
    expect(k.where).toBe('TRUE');
    expect(k.tail).toBe('ORDER BY o.block_index ASC, o.vout ASC LIMIT 11 OFFSET $1');
    expect(first).toEqual([40]);
    const top = keyset(blockOutputsKey, { limit: 5, after: null, offset: 0 }, [], 'o');
    expect(top.tail).toBe('ORDER BY o.block_index ASC, o.vout ASC LIMIT 11');
    expect(() => keyset(blockOutputsKey, { limit: 1.5, after: null, offset: 0 }, [], 'o')).toThrow(
      RangeError,
    );
  });

  it('follows the key whatever its width and types, and takes a column of a joined table when named', () => {
    expect(keyset(addressUtxosKey, { limit: 1, after: [9, 1, 0], offset: 0 }, [], 'o').where).toBe(
      '(o.block_height, o.block_index, o.vout) < ($1, $2, $3)',
    );
    const params: unknown[] = [];
    expect(keyset(topMinersKey, { limit: 1, after: [12, 'x'], offset: 0 }, params, 'm').order).toBe(
      'ORDER BY m.blocks DESC, m.address DESC',
    );
    expect(params.slice(0, 2)).toEqual([12, 'x']);
    const payouts = keyset(poolPayoutsKey, { limit: 1, after: [9, 1], offset: 0 }, [], 'o', {
      blockHeight: 'b.height',
    });
    expect(payouts.where).toBe('(b.height, o.vout) < ($1, $2)');
    expect(payouts.order).toBe('ORDER BY b.height DESC, o.vout DESC');
  });

  it("takes only a page of the key's own position type", () => {
    // @ts-expect-error the miners' key is (blocks, address): a number then a string
    keyset(topMinersKey, { limit: 1, after: [12, 13], offset: 0 }, [], 'm');
    // @ts-expect-error a column override names a key column
    keyset(txsKey, { limit: 1, after: null, offset: 0 }, [], 't', { vout: 'o.vout' });
  });

  it('reads a page and its look-ahead row rounded up to one of four sizes, so a statement has four texts', () => {
    expect([0, 1, 10, 11, 20, 21, 50, 51, 100].map(pageRows)).toEqual([11, 11, 11, 21, 21, 51, 51, 101, 101]);
    for (let limit = 1; limit <= 100; limit++) expect(pageRows(limit)).toBeGreaterThan(limit);
    expect(new Set(Array.from({ length: 100 }, (_, i) => pageRows(i + 1))).size).toBe(4);
    expect(() => pageRows(-1)).toThrow(RangeError);
  });
});
