import { ExplorerError } from './explorer-error.js';

/**
 * The request never got an answer (connection refused or reset, DNS, CORS) after the allowed retries; the
 * original error is `cause`.
 * @example catch (e) { if (e instanceof ExplorerNetworkError) showOffline() }
 */
export class ExplorerNetworkError extends ExplorerError {
  override name = 'ExplorerNetworkError';
  /** The URL that could not be reached. */
  readonly url: string;
  constructor(url: string, cause: unknown) {
    super(`could not reach ${url}: ${(cause as Error)?.message ?? String(cause)}`, true, { cause });
    this.url = url;
  }
}
