import { ExplorerError } from './explorer-error.js';

/**
 * What went wrong, as precisely as the runtime says: Node's fetch only says "fetch failed" and puts the reason
 * (connect ECONNREFUSED …, getaddrinfo ENOTFOUND …) in its cause.
 */
function reason(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string; code?: string } } | null;
  const outer = e?.message || String(err);
  const inner = e?.cause?.message || e?.cause?.code;
  return inner ? `${outer} (${inner})` : outer;
}

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
    super(`could not reach ${url}: ${reason(cause)}`, true, { cause });
    this.url = url;
  }
}
