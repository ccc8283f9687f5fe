import { ExplorerError } from './explorer-error.js';

/**
 * An event stream ended without the client asking: the server closed it with a `close` event (`code` says why,
 * e.g. `shutdown` or `slow-consumer`) or the connection dropped (`code` null). A subscription reconnects after
 * it; it is thrown only when the subscription's `reconnectLimit` runs out.
 * @example catch (e) { if (e instanceof ExplorerStreamClosedError) console.log(e.code ?? 'dropped', e.message) }
 */
export class ExplorerStreamClosedError extends ExplorerError {
  override name = 'ExplorerStreamClosedError';
  /** The URL of the stream. */
  readonly url: string;
  /** The `code` of the server's `close` event; null when the connection dropped. */
  readonly code: string | null;
  constructor(url: string, code: string | null, reason: string, cause?: unknown) {
    super(`the event stream ${url} ended: ${reason}`, true, { cause });
    this.url = url;
    this.code = code;
  }
}
