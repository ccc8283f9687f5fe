/**
 * The base of every error the client throws: catch this to handle them all.
 * @example try { await client.blocks.get(1) } catch (e) { if (e instanceof ExplorerError) console.log(e.retryable) }
 */
export class ExplorerError extends Error {
  override name = 'ExplorerError';
  /** Whether the same request may succeed if sent again later. */
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.retryable = retryable;
  }
}
