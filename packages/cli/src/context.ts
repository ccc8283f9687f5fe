import type { Command } from 'commander';
import { CliUsageError } from './errors.js';
import { createHttp, DEFAULT_MAX_WAIT_MS, type ExplorerHttp, type RetryNotice } from './http.js';
import { type OutputOptions, resolveFormat } from './output.js';

/** A stream the command line writes to. */
export interface CliStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

/** The process around a run: streams, environment, and the Ctrl-C signal (tests pass their own). */
export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  env: Record<string, string | undefined>;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /** A fetch to use instead of the global one (tests). */
  fetch?: typeof fetch;
}

/** The options every command accepts. */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  timeout?: string;
  maxWait?: string;
  json?: boolean;
  ndjson?: boolean;
  table?: boolean;
  baseUnits?: boolean;
  progress?: boolean;
}

/** What a command's action needs. */
export interface CommandContext {
  http: ExplorerHttp;
  output: OutputOptions;
  io: CliIo;
  /** Whether a progress bar may be drawn on stderr (stderr is a terminal and --no-progress is absent). */
  progress: boolean;
}

/** The server used when neither --base-url nor EXPLORER_BASE_URL says. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

/** The request timeout used when --timeout does not say, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** The longest Retry-After waited for when --max-wait does not say, in seconds. */
export const DEFAULT_MAX_WAIT_SECONDS = DEFAULT_MAX_WAIT_MS / 1000;

/** The stderr line said before a Retry-After wait. */
export function waitNotice(notice: RetryNotice): string {
  const seconds = Math.max(1, Math.ceil(notice.waitMs / 1000));
  const why = notice.status === 429 ? 'rate limited' : `server unavailable (${notice.status})`;
  return `${why}; waiting ${seconds} s (Retry-After)`;
}

/** Builds the context of a command from its options (and its ancestors'), the environment and the streams. */
export function contextOf(cmd: Command, io: CliIo): CommandContext {
  const o = cmd.optsWithGlobals<GlobalOptions>();
  if ([o.json, o.ndjson, o.table].filter(Boolean).length > 1) {
    throw new CliUsageError('choose one of --json, --ndjson and --table');
  }
  const baseUrl = o.baseUrl ?? io.env.EXPLORER_BASE_URL ?? DEFAULT_BASE_URL;
  try {
    new URL(baseUrl);
  } catch {
    throw new CliUsageError(`--base-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  const timeoutMs = o.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(o.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new CliUsageError('--timeout must be a positive number of milliseconds');
  }
  const maxWait = o.maxWait === undefined ? DEFAULT_MAX_WAIT_SECONDS : Number(o.maxWait);
  if (!Number.isFinite(maxWait) || maxWait < 0) {
    throw new CliUsageError('--max-wait must be a number of seconds, 0 or more');
  }
  const progress = Boolean(io.stderr.isTTY) && o.progress !== false;
  const apiKey = o.apiKey ?? io.env.EXPLORER_API_KEY;
  const http = createHttp({
    baseUrl,
    apiKey: apiKey || undefined,
    timeoutMs,
    maxWaitMs: maxWait * 1000,
    // One line, on its own: a progress bar drawn on the same terminal line is cleared first.
    onWait: (notice) => io.stderr.write(`${progress ? '\r\x1b[2K' : ''}${waitNotice(notice)}\n`),
    signal: io.signal,
    ...(io.fetch ? { fetch: io.fetch } : {}),
  });
  return {
    http,
    io,
    progress,
    output: {
      format: resolveFormat(o, Boolean(io.stdout.isTTY)),
      baseUnits: Boolean(o.baseUnits),
      out: io.stdout,
    },
  };
}
