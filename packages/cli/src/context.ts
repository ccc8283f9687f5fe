import { createExplorerClient, type ExplorerClient, type RetryInfo } from '@explorer/client';
import type { Command } from 'commander';
import { CliUsageError } from './errors.js';
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
  /** The SDK's client, set up from the options: key, timeout, retries bounded by --max-wait, Ctrl-C. */
  client: ExplorerClient;
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
export const DEFAULT_MAX_WAIT_SECONDS = 60;

/**
 * --max-wait in seconds (the default when absent), or null when it is not a number of seconds, 0 or more.
 * @example parseMaxWait('0') // 0
 */
export function parseMaxWait(value: string | undefined): number | null {
  const seconds = value === undefined ? DEFAULT_MAX_WAIT_SECONDS : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

/**
 * The stderr line said before a Retry-After wait, from what the SDK's `onRetry` tells.
 * @example waitNotice({ status: 429, delayMs: 12_000 }) // 'rate limited; waiting 12 s (Retry-After)'
 */
export function waitNotice(retry: Pick<RetryInfo, 'status' | 'delayMs'>): string {
  const seconds = Math.max(1, Math.ceil(retry.delayMs / 1000));
  const why = retry.status === 429 ? 'rate limited' : `server unavailable (${retry.status})`;
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
  const maxWait = parseMaxWait(o.maxWait);
  if (maxWait === null) throw new CliUsageError('--max-wait must be a number of seconds, 0 or more');
  const progress = Boolean(io.stderr.isTTY) && o.progress !== false;
  const apiKey = o.apiKey ?? io.env.EXPLORER_API_KEY;
  const client = createExplorerClient({
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    timeout: timeoutMs,
    retry: { maxRetryAfterMs: maxWait * 1000 },
    // A 200 that is not the API's envelope is the server's failure (exit 7), not something to print.
    validate: true,
    onRetry: (retry) => {
      // One line, on its own: a progress bar drawn on the same terminal line is cleared first. Network errors
      // and 5xx without Retry-After are retried after a short backoff without a word.
      if (retry.retryAfter) io.stderr.write(`${progress ? '\r\x1b[2K' : ''}${waitNotice(retry)}\n`);
    },
    signal: io.signal,
    ...(io.fetch ? { fetch: io.fetch } : {}),
  });
  return {
    client,
    io,
    progress,
    output: {
      format: resolveFormat(o, Boolean(io.stdout.isTTY)),
      baseUnits: Boolean(o.baseUnits),
      out: io.stdout,
    },
  };
}
