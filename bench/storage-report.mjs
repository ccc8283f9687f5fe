// The pure parts of bench/storage.mjs: bytes on disk per transaction, ratios, the settings of a throwaway
// PostgreSQL cluster, and the markdown report. No database or process here, so bench/storage-report.test.ts
// runs without a build.

const PROFILE_NAMES = { pearl: 'Pearl', bitcoin: 'Core' };

/** The explorer's name for a devnet dialect's profile, as bench/RESULTS.md writes it. */
export function profileName(dialect) {
  return PROFILE_NAMES[dialect] ?? dialect;
}

const round1 = (x) => (x === null ? null : Math.round(x * 10) / 10);

/**
 * Bytes on disk per transaction, per table and in total, from `pg_table_size` (heap, TOAST, free-space and
 * visibility maps) and `pg_indexes_size` of each table; tables sorted by their total, largest first.
 * @param {{ name: string, rows: number | string, tableBytes: number | string, indexBytes: number | string }[]} rows
 * @param {number} txs the transactions the database holds (the sync's own count)
 */
export function bytesPerTx(rows, txs) {
  const per = (bytes) => (txs > 0 ? round1(bytes / txs) : null);
  const tables = rows
    .map((r) => {
      const tableBytes = Number(r.tableBytes);
      const indexBytes = Number(r.indexBytes);
      const totalBytes = tableBytes + indexBytes;
      return {
        name: r.name,
        rows: Math.max(0, Number(r.rows)),
        tableBytes,
        indexBytes,
        totalBytes,
        perTx: { table: per(tableBytes), indexes: per(indexBytes), total: per(totalBytes) },
      };
    })
    .sort((a, b) => b.totalBytes - a.totalBytes || a.name.localeCompare(b.name));
  const sum = (k) => tables.reduce((s, t) => s + t[k], 0);
  const tableBytes = sum('tableBytes');
  const indexBytes = sum('indexBytes');
  return {
    txs,
    tables,
    total: {
      tableBytes,
      indexBytes,
      totalBytes: tableBytes + indexBytes,
      perTx: { table: per(tableBytes), indexes: per(indexBytes), total: per(tableBytes + indexBytes) },
    },
  };
}

/** new ÷ old to two decimals; null when either is missing or old is 0. */
export function newOverOld(newer, older) {
  if (newer === null || newer === undefined || older === null || older === undefined || Number(older) === 0)
    return null;
  return Math.round((Number(newer) / Number(older)) * 100) / 100;
}

/**
 * The figures of one profile compared: sync and COPY tx/s, sync ÷ COPY, peak RSS, bytes per transaction.
 * @param {{ sync: any, storage: ReturnType<typeof bytesPerTx> }} old
 * @param {{ sync: any, storage: ReturnType<typeof bytesPerTx> }} next
 */
export function compareRuns(old, next) {
  const pick = (run) => ({
    txPerSecond: run.sync.sync?.txPerSecond ?? null,
    copyTxPerSecond: run.sync.copyCeiling?.txPerSecond ?? null,
    syncToCopy: run.sync.copyCeiling?.syncToCopyRatio ?? null,
    peakRssMiB: run.sync.sync?.indexerPeakRssMiB ?? null,
    bytesPerTx: run.storage.total.perTx.total,
    tableBytesPerTx: run.storage.total.perTx.table,
    indexBytesPerTx: run.storage.total.perTx.indexes,
  });
  const o = pick(old);
  const n = pick(next);
  return Object.fromEntries(Object.keys(o).map((k) => [k, newOverOld(n[k], o[k])]));
}

/**
 * shared_buffers and effective_cache_size for a machine of `memoryBytes`, by the rule
 * examples/standalone/postgresql.explorer.conf states: a quarter, and five eighths, in whole MB.
 */
export function memorySettings(memoryBytes) {
  const mb = Math.floor(memoryBytes / 2 ** 20);
  return {
    shared_buffers: `${Math.floor(mb / 4)}MB`,
    effective_cache_size: `${Math.floor((mb * 5) / 8)}MB`,
  };
}

const quote = (s) => `'${String(s).replaceAll("'", "''")}'`;

/**
 * The lines appended to a throwaway cluster's postgresql.conf: where it listens, and for `tuned` the
 * recommended file included as it is, then its two memory settings sized for this machine.
 * @param {{ port: number, socketDir: string, pgConfig: 'default' | 'tuned', confFile?: string, memoryBytes?: number }} o
 */
export function clusterConf({ port, socketDir, pgConfig, confFile, memoryBytes }) {
  const lines = [
    '',
    '# bench/storage.mjs: a throwaway cluster on loopback',
    "listen_addresses = '127.0.0.1'",
    `port = ${port}`,
    `unix_socket_directories = ${quote(socketDir)}`,
  ];
  if (pgConfig === 'tuned') {
    if (!confFile || !memoryBytes) throw new Error('a tuned cluster needs confFile and memoryBytes');
    lines.push(`include ${quote(confFile)}`, '# the file sized for this machine, by its own rule');
    for (const [name, value] of Object.entries(memorySettings(memoryBytes))) lines.push(`${name} = ${value}`);
  } else if (pgConfig !== 'default') throw new Error(`pgConfig must be default or tuned, not ${pgConfig}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The settings of a postgresql.conf text, in order: `name = value # why`.
 * @returns {{ name: string, value: string, comment: string }[]}
 */
export function confSettings(text) {
  const settings = [];
  for (const line of text.split('\n')) {
    const m = /^\s*([a-z_][a-z0-9_.]*)\s*=?\s*('(?:[^']|'')*'|[^\s#]+)\s*(?:#\s*(.*))?$/.exec(line);
    if (m) settings.push({ name: m[1], value: m[2], comment: (m[3] ?? '').trim() });
  }
  return settings;
}

const n = (x, digits = 0) =>
  x === null || x === undefined
    ? '–'
    : Number(x).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
const r = (x) => (x === null || x === undefined ? '–' : String(x));
const perTx = (x) => n(x, x !== null && x !== undefined && Math.abs(x) < 100 ? 1 : 0);

/** The markdown report of a bench/storage.mjs result (the JSON it writes to bench/out/storage*.json). */
export function storageMarkdown(result) {
  const lines = [];
  const rev = (s) => `\`${s.rev}\` (${s.commit.slice(0, 8)}, ${s.subject})`;
  const m = result.machine;
  lines.push(
    `### Old schema against new: ${n(result.chain.blocks)} blocks × ~${result.chain.txPerBlock} txs, ${result.postgres.description}`,
    '',
    `Old: ${rev(result.old)}. New: ${rev(result.new)}.`,
    `Run of ${result.date.slice(0, 10)} on ${m.cpus} vCPU (${m.model}), ${m.memoryGiB} GiB, Node ${m.node}; PostgreSQL ${result.postgres.version}: \`${result.command}\`.`,
    `PostgreSQL settings (those examples/standalone/postgresql.explorer.conf sets): ${Object.entries(
      result.postgres.settings ?? {},
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    `Each revision's own \`bench/sync.mjs\` (its own rows, its own COPY ceiling); the two alternate within each profile (${result.profiles.map((p) => `${profileName(p.dialect)}: ${p.order.join(' then ')}`).join('; ')}).`,
    '',
  );
  const head = ['measure'];
  for (const p of result.profiles) {
    const name = profileName(p.dialect);
    head.push(`${name} old`, `${name} new`, `${name} new ÷ old`);
  }
  lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  const row = (label, get, fmt = n) => {
    const cells = [label];
    for (const p of result.profiles) {
      const o = get(p.runs.old);
      const v = get(p.runs.new);
      cells.push(fmt(o), fmt(v), r(newOverOld(v, o)));
    }
    lines.push(`| ${cells.join(' | ')} |`);
  };
  row('txs', (x) => x.sync.chain?.txs);
  row('sync tx/s', (x) => x.sync.sync?.txPerSecond);
  row('COPY tx/s', (x) => x.sync.copyCeiling?.txPerSecond);
  row('sync ÷ COPY', (x) => x.sync.copyCeiling?.syncToCopyRatio, r);
  row('indexer peak RSS, MiB', (x) => x.sync.sync?.indexerPeakRssMiB);
  row('bytes/tx, tables', (x) => x.storage.total.perTx.table, perTx);
  row('bytes/tx, indexes', (x) => x.storage.total.perTx.indexes, perTx);
  row('bytes/tx, total', (x) => x.storage.total.perTx.total, perTx);

  lines.push(
    '',
    '#### Bytes on disk per transaction, by table',
    '',
    'Total (table + its indexes): `pg_table_size` (heap, TOAST, free-space and visibility maps) and `pg_indexes_size`',
    'after `VACUUM (ANALYZE)`, divided by the transactions of that database. – : no such table in that schema.',
    '',
  );
  const tableHead = ['table'];
  for (const p of result.profiles) {
    const name = profileName(p.dialect);
    tableHead.push(`${name} old`, `${name} new`, `${name} new ÷ old`);
  }
  lines.push(`| ${tableHead.join(' | ')} |`, `|${tableHead.map(() => '---').join('|')}|`);
  // A table of its own for every table at 1 % or more of a side's total; the small ones (definitions, state,
  // empty tables' index pages) together.
  const listed = new Map();
  for (const p of result.profiles)
    for (const side of ['old', 'new']) {
      const { tables, total } = p.runs[side].storage;
      for (const t of tables)
        if (t.totalBytes >= total.totalBytes / 100)
          listed.set(t.name, Math.max(listed.get(t.name) ?? 0, t.totalBytes));
    }
  const names = [...listed.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k);
  const cell = (t) =>
    t ? `${perTx(t.perTx.total)} (${perTx(t.perTx.table)} + ${perTx(t.perTx.indexes)})` : '–';
  const find = (run, name) => run.storage.tables.find((t) => t.name === name);
  for (const name of names) {
    const cells = [`\`${name}\``];
    for (const p of result.profiles) {
      const o = find(p.runs.old, name);
      const v = find(p.runs.new, name);
      cells.push(cell(o), cell(v), r(newOverOld(v?.perTx.total, o?.perTx.total)));
    }
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const others = (run) => run.storage.tables.filter((t) => !names.includes(t.name));
  const count = Math.max(
    ...result.profiles.flatMap((p) => [others(p.runs.old).length, others(p.runs.new).length]),
  );
  if (count > 0) {
    const otherCells = [`other tables (each under 1 % of the total)`];
    const otherTotal = (run) =>
      run.storage.txs > 0
        ? round1(others(run).reduce((s, t) => s + t.totalBytes, 0) / run.storage.txs)
        : null;
    for (const p of result.profiles) {
      const o = otherTotal(p.runs.old);
      const v = otherTotal(p.runs.new);
      otherCells.push(perTx(o), perTx(v), r(newOverOld(v, o)));
    }
    lines.push(`| ${otherCells.join(' | ')} |`);
  }
  const totalCells = ['**all tables**'];
  for (const p of result.profiles) {
    const o = p.runs.old.storage.total;
    const v = p.runs.new.storage.total;
    totalCells.push(cell(o), cell(v), r(newOverOld(v.perTx.total, o.perTx.total)));
  }
  lines.push(`| ${totalCells.join(' | ')} |`);

  for (const p of result.profiles) {
    const old = p.runs.old.serve;
    const next = p.runs.new.serve;
    if (!old || !next) continue;
    lines.push(
      '',
      `#### Uncached serving, ${profileName(p.dialect)} (${next.connections} connections, ${next.seconds} s per endpoint, response cache off; ratio = req/s ÷ bare-Hono req/s at the same body size, same run)`,
      '',
      '| endpoint | old req/s | old p50 / p99 ms | old ratio | new req/s | new p50 / p99 ms | new ratio | new ÷ old ratio |',
      '|---|---|---|---|---|---|---|---|',
    );
    const names = [...new Set([...old.endpoints, ...next.endpoints].map((e) => e.name))];
    for (const name of names) {
      const o = old.endpoints.find((e) => e.name === name);
      const v = next.endpoints.find((e) => e.name === name);
      const lat = (e) => (e ? `${e.p50} / ${e.p99}` : '–');
      lines.push(
        `| ${name} | ${n(o?.rps)} | ${lat(o)} | ${r(o?.ratio)} | ${n(v?.rps)} | ${lat(v)} | ${r(v?.ratio)} | ${r(newOverOld(v?.ratio, o?.ratio))} |`,
      );
    }
  }
  return lines.join('\n');
}
