// The table of bench/peers-cold.mjs's results, for its output and for bench/RESULTS.md (bench/run.mjs).

const n = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toLocaleString('en-US'));
const times = (x) => (x === null || x === undefined ? '–' : `${x}×`);
const cpu = (c) =>
  Object.entries(c)
    .map(
      ([k, v]) =>
        `${n(v)} ${{ server: 'server', postgres: 'PostgreSQL', litecoind: 'litecoind', btcRpcExplorer: 'btc-rpc-explorer' }[k] ?? k}`,
    )
    .join(' + ');

/** Markdown lines (the setup, a table and what it leaves out) for one result of bench/peers-cold.mjs. */
export function peersColdTable(r) {
  const c = r.chain;
  const lines = [
    `Run of ${r.date.slice(0, 10)} on ${r.machine.cpus} vCPU (${r.machine.model}), Node ${r.machine.node}: \`${r.command}\`.`,
    `One litecoind regtest chain, tip ${n(c.tip)}: ${n(c.payouts)} payouts (inputs and outputs per payout: ${c.inputsPerPayout} and ${c.outputsPerPayout}), ` +
      `${c.txsPerBlock} to a block; indexed in ${c.indexSeconds} s; planner statistics: ${c.plannerStatistics}. ${r.generator}.`,
    ...Object.entries(r.systems).map(([k, v]) => `- ${k}: ${v}`),
    '',
    'Cold: every request names a transaction or block that this system was not asked before in the run (distinct requests per class in brackets); ' +
      'repeated: one request of the class again and again, which the caches answer. CPU: milliseconds per request of each process that serves it ' +
      `(PostgreSQL: ${r.postgresCpu ?? 'all its processes on the machine'}). The machine is shared, so absolute figures are noisy; the ratios, taken per round between ` +
      'neighbouring runs, are what count.',
    '',
    '| class | system: request | bytes | cold req/s | cold p50 / p99 ms | cold CPU ms per request | repeated req/s | repeated p50 / p99 ms | ours ÷ this, cold | ours ÷ this, repeated |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const cls of r.classes) {
    for (const s of cls.systems) {
      const flags = [
        s.wrapped ? 'ran out of distinct requests' : null,
        s.cold.errors + s.repeated.errors > 0 ? `${n(s.cold.errors + s.repeated.errors)} errors` : null,
      ]
        .filter(Boolean)
        .join(', ');
      lines.push(
        `| ${cls.name} (${n(cls.distinctPaths)}) | ${s.system}: ${s.request}${flags ? ` (${flags})` : ''} | ${n(s.bytes)} | ${n(s.cold.rps)} | ${s.cold.p50} / ${s.cold.p99} | ${cpu(s.cold.cpuMsPerRequest)} | ${n(s.repeated.rps)} | ${s.repeated.p50} / ${s.repeated.p99} | ${s.oursOver ? times(s.oursOver.cold) : ''} | ${s.oursOver ? times(s.oursOver.repeated) : ''} |`,
      );
    }
  }
  const left = r.classes.flatMap((cls) =>
    Object.entries(cls.notServed ?? {}).map(([k, v]) => `${cls.name}, ${k}: ${v}`),
  );
  if (left.length) lines.push('', `Not measured: ${left.join('; ')}.`);
  return lines;
}
