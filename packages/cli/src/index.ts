export {
  type CliIo,
  type CliStream,
  type CommandContext,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_WAIT_SECONDS,
  DEFAULT_TIMEOUT_MS,
  waitNotice,
} from './context.js';
export {
  CliApiError,
  CliError,
  CliInterruptedError,
  CliNetworkError,
  CliTimeoutError,
  CliUsageError,
  EXIT,
  type ExitCode,
  errorLine,
  exitCodeForStatus,
  exitCodeOf,
} from './errors.js';
export {
  type ApiData,
  type ApiResult,
  buildUrl,
  createHttp,
  DEFAULT_MAX_WAIT_MS,
  type ExplorerHttp,
  type HttpOptions,
  type Page,
  type PagesOptions,
  type Pagination,
  type Query,
  type RetryNotice,
} from './http.js';
export { type Format, formatCoins, formatTime, resolveFormat, shortHash } from './output.js';
export { createProgram, runCli } from './program.js';
export { CLI_VERSION } from './version.js';

/** The package's name. */
export const packageName = '@explorer/cli';
