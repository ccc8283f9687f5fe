export {
  type CliIo,
  type CliStream,
  type CommandContext,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_WAIT_SECONDS,
  DEFAULT_TIMEOUT_MS,
  parseMaxWait,
  waitNotice,
} from './context.js';
export {
  CliError,
  CliInterruptedError,
  CliUsageError,
  type ErrorContext,
  EXIT,
  type ExitCode,
  errorLine,
  exitCodeForStatus,
  exitCodeOf,
} from './errors.js';
export { type Format, formatCoins, formatTime, resolveFormat, shortHash } from './output.js';
export { createProgram, runCli } from './program.js';
export { CLI_VERSION } from './version.js';

/** The package's name. */
export const packageName = '@explorer/cli';
