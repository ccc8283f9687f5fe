import { describe, expect, it } from 'vitest';
import {
  createListPrinter,
  formatCoins,
  formatNumber,
  formatUntil,
  renderRecord,
  resolveFormat,
  shortHash,
} from './output.js';

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

  it('shows numbers that are not whole to 6 significant digits, never cutting the whole part', () => {
    expect(formatNumber(4.211597387306128)).toBe('4.2116');
    expect(formatNumber(-2.7935915027648917)).toBe('-2.79359');
    expect(formatNumber(145.19354838709677)).toBe('145.194');
    expect(formatNumber(10463831.949242195)).toBe('10463832');
    expect(formatNumber(123456.5)).toBe('123457');
    expect(formatNumber(0.000012345678)).toBe('0.0000123457');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(1.5)).toBe('1.5');
    expect(formatNumber(42)).toBe('42');
    expect(formatNumber(2 ** 53 + 2)).toBe('9007199254740994');
  });

  it('shows a time to come as ISO 8601 with how far off it is', () => {
    expect(formatUntil(1_000, 958_000)).toBe('1970-01-01T00:16:40Z (in 42 s)');
    expect(formatUntil(1_000, 1_000_000)).toBe('1970-01-01T00:16:40Z (in 0 s)');
    expect(formatUntil(1_000, 1_003_000)).toBe('1970-01-01T00:16:40Z (3 s ago)');
    expect(formatUntil(1_000, 1_000_000 - 300_000)).toBe('1970-01-01T00:16:40Z (in 5 min)');
    expect(formatUntil(86_400, 0)).toBe('1970-01-02T00:00:00Z (in 24 h)');
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
