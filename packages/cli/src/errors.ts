/** Exit codes of the command line, one per class of failure (documented in docs/cli.md). */
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  notFound: 3,
  badRequest: 4,
  auth: 5,
  rateLimited: 6,
  server: 7,
  network: 8,
  interrupted: 130,
} as const;

/** One of the exit codes. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The one table from an HTTP status to an exit code; statuses it does not name are unexpected. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400) return EXIT.badRequest;
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 429) return EXIT.rateLimited;
  if (status >= 500) return EXIT.server;
  return EXIT.unexpected;
}

/** The base of every error the command line reports itself; carries its exit code. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** Wrong arguments or options. */
export class CliUsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = 'CliUsageError';
  }
}

/** The API answered with an error envelope (or a non-JSON error body). */
export class CliApiError extends CliError {
  readonly status: number;
  readonly requestId: string | null;
  /** Whether asking again later may succeed (429, 503, and other 5xx but 500). */
  readonly retryable: boolean;
  /** Seconds the server asked to wait (Retry-After), if it said. */
  readonly retryAfter: number | null;
  constructor(status: number, message: string, requestId: string | null, retryAfter: number | null = null) {
    super(message, exitCodeForStatus(status));
    this.name = 'CliApiError';
    this.status = status;
    this.requestId = requestId;
    this.retryable = status === 429 || (status >= 502 && status <= 504);
    this.retryAfter = retryAfter;
  }
}

/** The API could not be reached (refused, reset, DNS…). */
export class CliNetworkError extends CliError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, EXIT.network, options);
    this.name = 'CliNetworkError';
  }
}

/** The API did not answer within --timeout. */
export class CliTimeoutError extends CliNetworkError {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms (see --timeout)`);
    this.name = 'CliTimeoutError';
  }
}

/** The user pressed Ctrl-C. */
export class CliInterruptedError extends CliError {
  constructor() {
    super('interrupted', EXIT.interrupted);
    this.name = 'CliInterruptedError';
  }
}

/** The exit code of anything thrown: its own for CliErrors, 1 for everything else. */
export function exitCodeOf(err: unknown): ExitCode {
  return err instanceof CliError ? err.exitCode : EXIT.unexpected;
}

/** The stderr line of an error: `error: <message> (requestId <id>)`. */
export function errorLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const id = err instanceof CliApiError && err.requestId ? ` (requestId ${err.requestId})` : '';
  return `error: ${message}${id}`;
}
