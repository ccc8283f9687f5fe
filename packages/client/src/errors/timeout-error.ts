import { ExplorerError } from './explorer-error.js';

/**
 * An attempt took longer than the client's `timeout`.
 * @example catch (e) { if (e instanceof ExplorerTimeoutError) console.log(`gave up after ${e.timeoutMs} ms`) }
 */
export class ExplorerTimeoutError extends ExplorerError {
  override name = 'ExplorerTimeoutError';
  /** The URL that did not answer in time. */
  readonly url: string;
  /** The timeout that ran out, in milliseconds. */
  readonly timeoutMs: number;
  constructor(url: string, timeoutMs: number, cause?: unknown) {
    super(`no answer from ${url} within ${timeoutMs} ms`, true, { cause });
    this.url = url;
    this.timeoutMs = timeoutMs;
  }
}
