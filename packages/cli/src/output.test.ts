import { describe, expect, it } from 'vitest';
import { createListPrinter, formatCoins, renderRecord, resolveFormat, shortHash } from './output.js';

const sink = () => {
  let text = '';
  return { out: { write: (s: string) => (text += s) }, text: () => text };
};

describe('output', () => {
  it('formats base units as coins exactly, negative and large values included', () => {
    expect(formatCoins(0)).toBe('0.00000000');
    expect(formatCoins(5_000_000_000)).toBe('50.00000000');
    expect(formatCoins(-41_643_511)).toBe('-0.41643511');
    expect(formatCoins(2 ** 53 - 1)).toBe('90071992.54740991');
    // The API's amounts are decimal strings; Pearl's supply is past 2^53 base units.
    expect(formatCoins('210000000000000000')).toBe('2100000000.00000000');
    expect(formatCoins('-1500000')).toBe('-0.01500000');
  });

  it('defaults to a table on a terminal and to JSON in a pipe; flags win', () => {
    expect(resolveFormat({}, true)).toBe('table');
    expect(resolveFormat({}, false)).toBe('json');
    expect(resolveFormat({ ndjson: true }, true)).toBe('ndjson');
    expect(resolveFormat({ table: true }, false)).toBe('table');
  });

  it('shortens hashes to their ends', () => {
    expect(shortHash('a'.repeat(8) + 'b'.repeat(48) + 'c'.repeat(8))).toBe('aaaaaaaa…cccccccc');
  });

  it('streams --all JSON as one valid document, also when interrupted before any row', () => {
    const s = sink();
    const p = createListPrinter({ format: 'json', baseUnits: false, out: s.out }, 'blocks', []);
    p.page({ miner: { address: 'x' }, blocks: [], pagination: { limit: 2, cursor: null, hasMore: true } }, [
      { height: 2 },
      { height: 1 },
    ]);
    p.page({ blocks: [] }, [{ height: 0 }]);
    p.end();
    expect(JSON.parse(s.text())).toEqual({
      miner: { address: 'x' },
      blocks: [{ height: 2 }, { height: 1 }, { height: 0 }],
    });
    const empty = sink();
    createListPrinter({ format: 'json', baseUnits: false, out: empty.out }, 'txs', []).end();
    expect(JSON.parse(empty.text())).toEqual({ txs: [] });
  });

  it('renders records with amounts in coins (or base units) and nested lists as tables', () => {
    const data = {
      tx: { txid: 'ab'.repeat(32), fee: 457, time: 0, outputs: [{ vout: 0, value: 100_000_000 }] },
    };
    const coins = renderRecord(data, false);
    expect(coins).toContain('ab'.repeat(32));
    expect(coins).toMatch(/fee\s+0\.00000457/);
    expect(coins).toMatch(/time\s+1970-01-01T00:00:00Z/);
    expect(coins).toMatch(/outputs \(1\)\nvout\s+value\n0\s+1\.00000000/);
    expect(renderRecord(data, true)).toMatch(/fee\s+457\n/);
  });
});
