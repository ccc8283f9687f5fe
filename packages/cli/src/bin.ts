#!/usr/bin/env node
import { EXIT } from './errors.js';
import { runCli } from './program.js';

const interrupt = new AbortController();
process.on('SIGINT', () => {
  // The first Ctrl-C stops after the current line; a second one does not wait.
  if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
  interrupt.abort();
});
// A closed pipe (`explorer blocks --all | head`) is a normal way to stop reading.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT.ok);
  throw err;
});

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: interrupt.signal,
});
// Exit once everything written so far has been handed to the OS, so no line is cut.
process.stdout.write('', () => process.exit(code));
