#!/usr/bin/env node
import { cappedThreadArgv, heapCapFor, runUnderHeapCap } from './heap-cap.js';

// `start` and `index` run on a thread whose heap V8 caps, unless Node was given a heap size (heap-cap.ts).
const argv = cappedThreadArgv() ?? process.argv;
const cap =
  argv === process.argv ? heapCapFor(argv.slice(2), process.execArgv, process.env.NODE_OPTIONS) : null;
if (cap !== null) await runUnderHeapCap(new URL(import.meta.url), cap);
else {
  const { createProgram } = await import('./program.js');
  await createProgram().parseAsync(argv);
}
