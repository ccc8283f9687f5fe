import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Store } from '../store.js';
import { type CursorKey, decodeCursor, encodeCursor } from './cursor.js';
import { cursorKey, type KeyOf, type PageOf } from './cursor-key.js';
import { type addressUtxosKey, type blockOutputsKey, type blocksKey, topMinersKey, txsKey } from './keys.js';

const Item = z.object({
  height: z.int(),
  hash: z.string(),
  name: z.string(),
  seq: z.int(),
  note: z.string().nullable(),
  extra: z.int().optional(),
});

describe('a cursor key', () => {
  it('takes the types of its columns from the item schema, in column order', () => {
    const key = cursorKey(Item, ['name', 'seq'], { order: 'asc' });
    expect(key.types).toEqual(['string', 'number']);
    expectTypeOf<KeyOf<typeof key>>().toEqualTypeOf<readonly [string, number]>();
    expectTypeOf(key.keyOf).returns.toEqualTypeOf<readonly [string, number]>();
    expectTypeOf<PageOf<typeof key>['after']>().toEqualTypeOf<readonly [string, number] | null>();
  });

  it('only has fields that always hold a number or a string as columns, and a string field as guard', () => {
    // @ts-expect-error a nullable field cannot order a keyset
    expect(() => cursorKey(Item, ['note'], { order: 'asc' })).toThrow(/note must be a number or string/);
    // @ts-expect-error an optional field cannot either
    expect(() => cursorKey(Item, ['extra'], { order: 'asc' })).toThrow(/extra must be a number or string/);
    // @ts-expect-error nor a field the item does not have
    expect(() => cursorKey(Item, ['nope'], { order: 'asc' })).toThrow(/nope/);
    // @ts-expect-error the guard is a block hash
    cursorKey(Item, ['height'], { order: 'desc', guard: 'seq' });
    // A guard checks the block at the key's first column: it must be a height.
    expect(() => cursorKey(Item, ['name'], { order: 'desc', guard: 'hash' })).toThrow(/block height/);
  });

  it('is the key function of its rows, and the cursor adds the guard', () => {
    const plain = cursorKey(Item, ['height', 'seq'], { order: 'desc' });
    const guarded = cursorKey(Item, ['height', 'seq'], { order: 'desc', guard: 'hash' });
    const row = { height: 7, seq: 2, hash: 'ab'.repeat(32), name: 'x' };
    expect(plain.keyOf(row)).toEqual([7, 2]);
    expect(plain.cursorOf(row)).toEqual([7, 2]);
    expect(guarded.keyOf(row)).toEqual([7, 2]);
    expect(guarded.cursorOf(row)).toEqual([7, 2, 'abababababababab']);
    expect(guarded.guard).toBe('hash');
    expect(plain.guard).toBeNull();
  });

  it('types every list position and store method from the declaration beside its route', () => {
    expectTypeOf<KeyOf<typeof blocksKey>>().toEqualTypeOf<readonly [number]>();
    expectTypeOf<KeyOf<typeof txsKey>>().toEqualTypeOf<readonly [number, number]>();
    expectTypeOf<KeyOf<typeof addressUtxosKey>>().toEqualTypeOf<readonly [number, number, number]>();
    expectTypeOf<KeyOf<typeof topMinersKey>>().toEqualTypeOf<readonly [number, string]>();
    expectTypeOf<Parameters<Store['listTopMiners']>[0]['after']>().toEqualTypeOf<
      readonly [number, string] | null
    >();
    expectTypeOf<Parameters<Store['listBlockOutputs']>[1]>().toEqualTypeOf<PageOf<typeof blockOutputsKey>>();
    expect(topMinersKey.types).toEqual(['number', 'string']);
    expect(txsKey).toMatchObject({
      columns: ['blockHeight', 'blockIndex'],
      order: 'desc',
      guard: 'blockHash',
    });
  });
});

describe('cursor encoding', () => {
  // Cursors clients hold must survive upgrades: these were issued by 1.0.0.
  it.each([
    ['blocks', [812345, 'abababababababab'], 'dGl0bGprLls4MTIzNDUsImFiYWJhYmFiYWJhYmFiYWIiXQ'],
    ['miners-top', [12, 'addr'], 'MXVhb3Y2Zi5bMTIsImFkZHIiXQ'],
    [`tx-inputs:${'ab'.repeat(32)}`, [0], 'MXIwZTk0bC5bMF0'],
  ] as [string, CursorKey, string][])('%s %j ⇄ %s', (scope, key, cursor) => {
    expect(encodeCursor(scope, key)).toBe(cursor);
    const types = key.map((v) => (typeof v === 'number' ? 'number' : 'string'));
    expect(decodeCursor(scope, cursor, types)).toEqual(key);
  });

  it('refuses a cursor of another scope, shape or type', () => {
    const cursor = encodeCursor('blocks', [5]);
    expect(() => decodeCursor('txs', cursor, ['number'])).toThrow('cursor must be a valid pagination cursor');
    expect(() => decodeCursor('blocks', cursor, ['number', 'number'])).toThrow(/valid pagination cursor/);
    expect(() => decodeCursor('blocks', cursor, ['string'])).toThrow(/valid pagination cursor/);
    expect(() => decodeCursor('blocks', `${cursor}x`, ['number'])).toThrow(/valid pagination cursor/);
  });
});
