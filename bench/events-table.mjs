// The table of bench/events.mjs's results, for its output and for bench/RESULTS.md (bench/run.mjs).

const n = (x) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toLocaleString('en-US'));
const lat = (l) => (l ? `${l.p50} / ${l.p99} / ${l.max}` : '–');
const cpu = (c, own) => [c[own], c.postgres, c.node, c.clients].map(n).join(' / ');
const signed = (v) => (v === null || v === undefined ? '–' : v >= 0 ? `+${n(v)}` : `−${n(-v)}`);
const checks = (c) => `${n(c.gaps)} / ${n(c.dupes)} / ${n(c.closedOrDropped)}`;

/** Markdown lines (the setup, a table and what it says) for one result of bench/events.mjs. */
export function eventsTable(r) {
  const { replay, flood } = r.ceiling;
  const env = Object.entries(r.setup.env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const lines = [
    `Run of ${r.date.slice(0, 10)} on ${r.machine.cpus} vCPU (${r.machine.model}), Node ${r.machine.node}: \`${r.command}\`.`,
    `${r.setup.clients}; a devnet block every ${r.setup.blockMs} ms (~${r.setup.txPerBlock} txs); server env \`${env}\`. ` +
      `Load average (1, 5, 15 min) before / after: ${r.loadAverage.before} / ${r.loadAverage.after}.`,
    '',
    '| run | streams of | events sent (block / address) | frames delivered / s | gaps / dupes / streams closed | latency `at` → received p50 / p99 / max ms | first receipt p50 / spread to the last p50 ms | CPU s per s: server (ceiling) / PostgreSQL / node / clients | server RSS peak |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const fan = (p) => (p.perEvent ? `${p.perEvent.firstMs.p50} / ${p.perEvent.spreadMs.p50}` : '–');
  for (const p of r.phases) {
    lines.push(
      `| explorer, ${p.name} | \`${p.query.replace(/addresses=[^&]+/, 'addresses=<busy address>')}\` | ${n(p.events.block)} / ${n(p.events.address)} | ${n(p.framesPerSecond)} | ${checks(p.completeness)} | ${lat(p.latencyAllMs)} | ${fan(p)} | ${cpu(p.cpuPerSecond, 'server')} | ${p.serverRssMiB.peak} MiB |`,
    );
  }
  const m = r.maxRate;
  if (m)
    lines.push(
      `| explorer, ${m.name} | \`/v1/events?topics=block\` | ${n(m.events)} / – | ${n(m.framesPerSecond)} | ${checks(m.completeness)} | – | – | ${cpu(m.cpuPerSecond, 'server')} | ${m.serverRssMiB.peak} MiB |`,
    );
  lines.push(
    `| ceiling, ${replay.name} | bare node:http | ${n(replay.broadcasts)} / – | ${n(replay.framesPerSecond)} | ${checks(replay.completeness)} | ${lat(replay.latencyAllMs)} | ${fan(replay)} | ${cpu(replay.cpuPerSecond, 'ceiling')} | – |`,
  );
  if (flood)
    lines.push(
      `| ceiling, ${flood.name} | bare node:http | ${n(flood.broadcasts)} / – | ${n(flood.framesPerSecond)} | ${checks(flood.completeness)} | – | – | ${cpu(flood.cpuPerSecond, 'ceiling')} | – |`,
    );
  const b = r.phases[0];
  const x = r.ratios;
  lines.push(
    '',
    `Block frames of ${n(b.frameBytes.block)} bytes (address frames ${n(r.phases[1]?.frameBytes.address ?? null)}). ` +
      `At the block rate the explorer delivers ${x.blockRateVsReplay}× the frames of the ceiling replaying them ` +
      `(every frame, both)${flood ? `, ${x.blockRateVsCeilingMax} of the ceiling's maximum rate` : ''}; its latency adds ` +
      `p50 ${signed(x.addedLatencyMs.p50)} ms, p99 ${signed(x.addedLatencyMs.p99)} ms to the ceiling's (first receipt of an event ` +
      `${signed(x.addedLatencyMs.firstReceiptP50)} ms, spread to its last receipt ${signed(x.addedLatencyMs.spreadP50)} ms, p50). ` +
      (m
        ? `At its maximum rate the explorer delivers ${x.maxRateVsCeilingMax} of the ceiling's maximum, at ` +
          `${n(m.cpuMicrosPerFrame)} µs of server CPU per frame against the ceiling's ${n(r.ceiling.cpuMicrosPerFrame.flood)} ` +
          `(${x.cpuPerFrameAtMaxVsCeiling}×). `
        : '') +
      `Server CPU at the block rate with no stream open: ${r.idle.cpuPerSecond.server} s per s; with the streams: ` +
      `${b.cpuPerSecond.server} (${signed(r.server.deliveryCpuMicrosPerFrame)} µs per frame delivered). Server RSS: ` +
      `${r.server.rssMiB.start} MiB synced, ${r.server.rssMiB.afterIdle} after the idle phase, VmHWM ${r.server.rssMiB.hwm} MiB.`,
  );
  return lines;
}
