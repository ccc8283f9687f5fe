import {
  ExplorerApiError,
  ExplorerNetworkError,
  ExplorerPrivateKeyError,
  ExplorerStreamClosedError,
  ExplorerTimeoutError,
  ExplorerValidationError,
} from '@explorer/client';

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

/** The table from an HTTP status to an exit code; statuses it does not name are unexpected. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400) return EXIT.badRequest;
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 429) return EXIT.rateLimited;
  if (status >= 500) return EXIT.server;
  return EXIT.unexpected;
}

/** The base of the failures the command line finds itself (the API's come as the SDK's errors); carries its exit code. */
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

/** The user pressed Ctrl-C. */
export class CliInterruptedError extends CliError {
  constructor() {
    super('interrupted', EXIT.interrupted);
    this.name = 'CliInterruptedError';
  }
}

/** What the command line knows when it reports an error: the settings a message refers to. */
export interface ErrorContext {
  /** --max-wait in seconds, when it was valid. */
  maxWaitSeconds?: number;
}

/** How the command line reports one kind of error: its exit code and its message. */
interface ErrorRule<E> {
  matches(err: unknown): err is E;
  exitCode(err: E): ExitCode;
  message(err: E, ctx: ErrorContext): string;
}

const rule = <E extends Error>(
  type: abstract new (...args: never[]) => E,
  exitCode: (err: E) => ExitCode,
  message: (err: E, ctx: ErrorContext) => string = (err) => err.message,
): ErrorRule<E> => ({ matches: (err): err is E => err instanceof type, exitCode, message });

/** A Retry-After the SDK did not wait for because --max-wait is shorter: the reason, for the error line. */
function waitTooLong(err: ExplorerApiError, ctx: ErrorContext): string {
  const max = ctx.maxWaitSeconds;
  const asked = err.retryAfter;
  if (max === undefined || asked === null || (err.status !== 429 && err.status !== 503)) return '';
  return asked > max ? ` (Retry-After ${asked} s is longer than --max-wait ${max} s)` : '';
}

/**
 * The one table from an error to an exit code and a message: the command line's own errors, the SDK's
 * (ExplorerApiError by status, network and timeout 8, a body that is not the API's 7), and an abort (Ctrl-C).
 * Anything else is unexpected (1) and says its message.
 */
const RULES: readonly ErrorRule<any>[] = [
  rule(CliError, (e) => e.exitCode),
  rule(
    ExplorerApiError,
    (e) => exitCodeForStatus(e.status),
    (e, ctx) => `${e.message}${waitTooLong(e, ctx)}${e.requestId ? ` (requestId ${e.requestId})` : ''}`,
  ),
  rule(
    ExplorerTimeoutError,
    () => EXIT.network,
    (e) => `${e.message} (see --timeout)`,
  ),
  // Refused by the SDK before any request, as the server would have (400).
  rule(ExplorerPrivateKeyError, () => EXIT.badRequest),
  rule(ExplorerNetworkError, () => EXIT.network),
  rule(ExplorerStreamClosedError, () => EXIT.network),
  rule(ExplorerValidationError, () => EXIT.server),
  {
    // fetch and ky reject with a DOMException named AbortError, not a class of their own.
    matches: (err): err is Error => (err as Error | null)?.name === 'AbortError',
    exitCode: () => EXIT.interrupted,
    message: () => 'interrupted',
  },
];

const ruleOf = (err: unknown) => RULES.find((r) => r.matches(err));

/** The exit code of anything thrown, from the table; 1 for what it does not know. */
export function exitCodeOf(err: unknown): ExitCode {
  return ruleOf(err)?.exitCode(err) ?? EXIT.unexpected;
}

/**
 * The stderr line of anything thrown: `error: <message>`, with the request id of an API error.
 * @example errorLine(apiError, { maxWaitSeconds: 60 }) // 'error: block 9 not found (requestId 5c92…)'
 */
export function errorLine(err: unknown, ctx: ErrorContext = {}): string {
  const found = ruleOf(err);
  const message = found ? found.message(err, ctx) : err instanceof Error ? err.message : String(err);
  return `error: ${message}`;
}
