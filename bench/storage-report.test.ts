import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  bytesPerTx,
  clusterConf,
  compareRuns,
  confSettings,
  memorySettings,
  newOverOld,
  storageMarkdown,
  // @ts-expect-error a plain .mjs module of the benchmarks, without declarations; it needs no build.
} from './storage-report.mjs';

const confPath = new URL('../examples/standalone/postgresql.explorer.conf', import.meta.url);

/** A bench/storage.mjs run of one side: what sync.mjs wrote, and the sizes of its tables. */
function side(
  txPerSecond: number,
  copy: number,
  rss: number,
  tables: [string, number, number][],
  txs = 1000,
) {
  return {
    sync: {
      chain: { blocks: 101, txs },
      sync: { txPerSecond, indexerPeakRssMiB: rss },
      copyCeiling: { txPerSecond: copy, syncToCopyRatio: Math.round((txPerSecond / copy) * 100) / 100 },
    },
    storage: bytesPerTx(
      tables.map(([name, tableBytes, indexBytes]) => ({ name, rows: 1, tableBytes, indexBytes })),
      txs,
    ),
    serve: null,
  };
}

describe('bytes on disk per transaction', () => {
  it('divides each table and its indexes by the transactions, largest table first, and sums them', () => {
    // pg returns int8 as strings.
    const s = bytesPerTx(
      [
        { name: 'blocks', rows: '10', tableBytes: '8192', indexBytes: '16384' },
        { name: 'txs', rows: '1000', tableBytes: '245760', indexBytes: '98304' },
        { name: 'api_keys', rows: '-1', tableBytes: '0', indexBytes: '8192' },
      ],
      1000,
    );
    expect(s.tables.map((t: { name: string }) => t.name)).toEqual(['txs', 'blocks', 'api_keys']);
    expect(s.tables[0]).toMatchObject({
      rows: 1000,
      totalBytes: 344064,
      perTx: { table: 245.8, indexes: 98.3, total: 344.1 },
    });
    expect(s.tables[2].rows).toBe(0);
    expect(s.total).toEqual({
      tableBytes: 253952,
      indexBytes: 122880,
      totalBytes: 376832,
      perTx: { table: 254, indexes: 122.9, total: 376.8 },
    });
    expect(
      bytesPerTx([{ name: 't', rows: 0, tableBytes: 0, indexBytes: 0 }], 0).total.perTx.total,
    ).toBeNull();
  });

  it('compares new with old: null where a side is missing or old is 0', () => {
    expect(newOverOld(150, 100)).toBe(1.5);
    expect(newOverOld(1, 3)).toBe(0.33);
    expect(newOverOld(5, 0)).toBeNull();
    expect(newOverOld(null, 3)).toBeNull();
    const ratios = compareRuns(
      side(1000, 2000, 300, [['txs', 400_000, 200_000]]),
      side(2000, 5000, 240, [['txs', 200_000, 100_000]]),
    );
    expect(ratios).toEqual({
      txPerSecond: 2,
      copyTxPerSecond: 2.5,
      syncToCopy: 0.8,
      peakRssMiB: 0.8,
      bytesPerTx: 0.5,
      tableBytesPerTx: 0.5,
      indexBytesPerTx: 0.5,
    });
  });
});

describe('the markdown report', () => {
  it('puts old, new and new ÷ old side by side per profile, per table, and the small tables together', () => {
    const old = side(1000, 2000, 300, [
      ['txs', 400_000, 200_000],
      ['outputs', 300_000, 100_000],
      ['api_keys', 0, 8192],
    ]);
    const next = side(1500, 3000, 250, [
      ['txs', 100_000, 50_000],
      ['utxos', 600_000, 300_000],
      ['api_keys', 0, 8192],
    ]);
    const md: string = storageMarkdown({
      date: '2026-12-01T10:00:00.000Z',
      machine: { cpus: 2, model: 'AMD EPYC', memoryGiB: 24, node: 'v20.20.2' },
      command: 'node bench/storage.mjs --old main --blocks 100',
      old: { rev: 'main', commit: 'a'.repeat(40), subject: 'old schema' },
      new: { rev: 'HEAD', commit: 'b'.repeat(40), subject: 'new schema' },
      chain: { blocks: 100, txPerBlock: 10 },
      postgres: { description: 'the machine’s server', version: '15.20', settings: {} },
      profiles: [{ dialect: 'pearl', order: ['old', 'new'], runs: { old, new: next } }],
    });
    expect(md).toContain('| measure | Pearl old | Pearl new | Pearl new ÷ old |');
    expect(md).toContain('| sync tx/s | 1,000 | 1,500 | 1.5 |');
    expect(md).toContain('| COPY tx/s | 2,000 | 3,000 | 1.5 |');
    expect(md).toContain('| indexer peak RSS, MiB | 300 | 250 | 0.83 |');
    expect(md).toContain('| bytes/tx, total | 1,008 | 1,058 | 1.05 |');
    // Largest first; api_keys (under 1 % of either total) goes with the other small tables.
    expect(md).toContain(
      [
        '| `utxos` | – | 900 (600 + 300) | – |',
        '| `txs` | 600 (400 + 200) | 150 (100 + 50) | 0.25 |',
        '| `outputs` | 400 (300 + 100) | – | – |',
        '| other tables (each under 1 % of the total) | 8.2 | 8.2 | 1 |',
        '| **all tables** | 1,008 (700 + 308) | 1,058 (700 + 358) | 1.05 |',
      ].join('\n'),
    );
    expect(md).not.toContain('`api_keys`');
    expect(md).not.toContain('Uncached serving');
  });
});

describe('the recommended PostgreSQL configuration', () => {
  const text = readFileSync(confPath, 'utf8');
  const settings: { name: string; value: string; comment: string }[] = confSettings(text);

  it('says why for every setting, and keeps fsync on', () => {
    expect(settings.length).toBeGreaterThan(10);
    for (const s of settings) expect(s.comment, s.name).not.toBe('');
    const value = (name: string) => settings.find((s) => s.name === name)?.value;
    expect(value('fsync')).toBe('on');
    expect(value('full_page_writes')).toBe('on');
    expect(value('synchronous_commit')).toBe('off');
    expect(new Set(settings.map((s) => s.name)).size).toBe(settings.length);
  });

  it('is shown as it is in docs/operations.md', () => {
    const doc = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8');
    expect(doc).toContain(`\`\`\`ini\n${text}\`\`\``);
  });

  it('sizes its two memory settings by its own rule: a quarter and five eighths of memory', () => {
    const value = (name: string) => settings.find((s) => s.name === name)?.value;
    const sixteen = memorySettings(16 * 2 ** 30);
    expect(sixteen).toEqual({ shared_buffers: '4096MB', effective_cache_size: '10240MB' });
    expect(value('shared_buffers')).toBe('4GB');
    expect(value('effective_cache_size')).toBe('10GB');
  });

  it('is included by a tuned throwaway cluster, then sized for the machine; a default one is left alone', () => {
    const tuned = clusterConf({
      port: 5999,
      socketDir: "/tmp/it's",
      pgConfig: 'tuned',
      confFile: '/repo/examples/standalone/postgresql.explorer.conf',
      memoryBytes: 24 * 2 ** 30,
    });
    expect(confSettings(tuned)).toEqual([
      { name: 'listen_addresses', value: "'127.0.0.1'", comment: '' },
      { name: 'port', value: '5999', comment: '' },
      { name: 'unix_socket_directories', value: "'/tmp/it''s'", comment: '' },
      { name: 'include', value: "'/repo/examples/standalone/postgresql.explorer.conf'", comment: '' },
      { name: 'shared_buffers', value: '6144MB', comment: '' },
      { name: 'effective_cache_size', value: '15360MB', comment: '' },
    ]);
    const plain = confSettings(clusterConf({ port: 5999, socketDir: '/tmp/x', pgConfig: 'default' }));
    expect(plain.map((s: { name: string }) => s.name)).toEqual([
      'listen_addresses',
      'port',
      'unix_socket_directories',
    ]);
    expect(() => clusterConf({ port: 1, socketDir: '/x', pgConfig: 'fast' })).toThrow(/default or tuned/);
  });
});
