// The bench/RESULTS.md table of bench/cold.mjs: each class cold and repeated, on the Pearl and the Core chain.
const n = (x) => (x ?? 0).toLocaleString('en-US');

/**
 * Markdown lines for two runs of bench/cold.mjs (Pearl's chain and Core's).
 * @example lines.push(...coldTable(read('cold-large'), read('cold-large-core')))
 */
export function coldTable(pearl, core) {
  const row = (run, name, mode) => run.endpoints.find((e) => e.name === name && e.mode === mode);
  const cell = (r) =>
    r
      ? `${n(r.rps)} | ${r.p50} / ${r.p99} | ${r.ratio}${r.wrapped ? ' (ran out of paths)' : ''}`
      : '– | – | –';
  const names = [...new Set([...pearl.endpoints, ...core.endpoints].map((e) => e.name))];
  const lines = [
    `Pearl: ${n(pearl.chain.tip + 1)} blocks, ${n(pearl.chain.addresses)} addresses; Core: ${n(core.chain.tip + 1)} blocks. ` +
      'Cold: every request names a transaction, block or address no request of the run asked before (distinct ' +
      'paths walked by wrk, more than every cache holds), so only the tip cache can answer; repeated: one path ' +
      'again and again, answered by the response cache. "From a cache" and the statements per request are read ' +
      "from the server's own metrics over the same rounds; whether PostgreSQL keeps each statement's plan, and the " +
      'planning and execution time of one more call, from `planReport` (bench/db-peer.mjs) over a dozen of the ' +
      "class's paths on one connection.",
    '',
    '| class | Pearl cold req/s | p50 / p99 ms | ratio | statements | from a cache | plans kept (planning / execution ms) | Pearl repeated req/s | p50 / p99 ms | ratio | Core cold req/s | p50 / p99 ms | ratio | Core repeated req/s | p50 / p99 ms | ratio |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const name of names) {
    const cold = row(pearl, name, 'cold');
    lines.push(
      `| ${name} | ${cell(cold)} | ${cold?.statementsPerRequest ?? '–'} | ${cold?.fromCache ?? '–'} | ${cold?.plans ? `${cold.plansKept ? 'yes' : 'no'} (${cold.planningMs} / ${cold.executionMs})` : '–'} | ${cell(row(pearl, name, 'repeated'))} | ${cell(row(core, name, 'cold'))} | ${cell(row(core, name, 'repeated'))} |`,
    );
  }
  return lines;
}
