#!/usr/bin/env node
// Where a process's CPU went, from a V8 CPU profile (node --cpu-prof): the share of its busy samples in the
// explorer's own code (the workspace's packages), in libraries (node_modules), in Node's own JavaScript
// (node:…), in garbage collection and in native code (socket writes, hashing…), with the heaviest functions of
// each. Idle samples are left out of the shares. Used by bench/cold.mjs --server-cpu-prof.
//
// usage: node bench/cpu-profile.mjs <file.cpuprofile> [--top 15]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** The part of the program a profile node's code belongs to. */
function partOf(frame) {
  const url = frame.url ?? '';
  if (!url) {
    if (frame.functionName === '(garbage collector)') return 'gc';
    if (frame.functionName === '(idle)') return 'idle';
    return 'native';
  }
  // A worker thread blocked in Atomics.wait (piscina's idle workers) waits; it does not work.
  if (frame.functionName === 'atomicsWaitLoop') return 'idle';
  if (url.startsWith('node:')) return 'node';
  if (url.includes('/node_modules/')) return 'libraries';
  if (url.includes('/packages/')) return 'explorer';
  return 'other';
}

/** A function's name with where it is (package or module, line). */
function nameOf(frame) {
  const url = frame.url ?? '';
  const pkg =
    url.match(/node_modules\/(?:\.pnpm\/)?((?:@[^/]+\/)?[^/@]+)/)?.[1] ??
    url.match(/packages\/([^/]+)\//)?.[1] ??
    (url.startsWith('node:') ? url : url.split('/').slice(-1)[0]);
  return `${frame.functionName || '(anonymous)'} ${pkg ?? ''}${frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : ''}`;
}

/**
 * The summary of a profile: busy milliseconds, the share of each part, and the heaviest functions (self time)
 * of each part.
 * @example summarizeProfile('/tmp/prof/CPU.….cpuprofile').shares.explorer // 0.14
 */
export function summarizeProfile(file, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const parts = {};
  const functions = {};
  let busy = 0;
  for (const [id, us] of self) {
    const frame = byId.get(id).callFrame;
    const part = partOf(frame);
    if (part === 'idle') continue;
    busy += us;
    parts[part] = (parts[part] ?? 0) + us;
    functions[part] ??= new Map();
    const fns = functions[part];
    const name = nameOf(frame);
    fns.set(name, (fns.get(name) ?? 0) + us);
  }
  const share = (us) => Math.round((us / Math.max(1, busy)) * 1000) / 1000;
  return {
    busyMs: Math.round(busy / 1000),
    shares: Object.fromEntries(Object.entries(parts).map(([k, us]) => [k, share(us)])),
    heaviest: Object.fromEntries(
      Object.entries(functions).map(([part, fns]) => [
        part,
        [...fns]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([name, us]) => ({ name, share: share(us) })),
      ]),
    ),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string' } } });
  if (positionals.length !== 1) {
    console.error('usage: node bench/cpu-profile.mjs <file.cpuprofile> [--top 15]');
    process.exit(2);
  }
  console.log(JSON.stringify(summarizeProfile(positionals[0], Number(values.top ?? 15)), null, 2));
}
