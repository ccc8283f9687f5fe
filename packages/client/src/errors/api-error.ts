import { ExplorerError } from './explorer-error.js';

/** The error envelope of the API, `{ ok: false, error, meta }`, as far as it could be parsed. */
export interface ErrorBody {
  ok?: false;
  error?: string;
  meta?: { requestId?: string; indexedTip?: number; nodeHeight?: number | null; servedAt?: string };
  [member: string]: unknown;
}

/**
 * Answers worth sending again later: timeouts, rate limits, and server or gateway failures. Not a 501: what
 * was asked for is not configured on the server (market data without a provider), which no retry changes.
 * @example isRetryableStatus(501) // false
 */
const isRetryableStatus = (status: number) =>
  status === 408 || status === 429 || (status >= 500 && status !== 501);

/**
 * The API answered with a status other than 2xx (after any retries): carries the status, the envelope's
 * message, the request id to quote, and the parsed body.
 * @example
 * try { await client.blocks.get(99_999_999) }
 * catch (e) { if (e instanceof ExplorerApiError && e.status === 404) console.log(e.message, e.requestId) }
 */
export class ExplorerApiError extends ExplorerError {
  override name = 'ExplorerApiError';
  /** The HTTP status. */
  readonly status: number;
  /** `meta.requestId` of the envelope, else the `X-Request-Id` header, else null. */
  readonly requestId: string | null;
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | null;
  /** The parsed body (the error envelope), or null when it was not JSON. */
  readonly body: ErrorBody | null;
  /** The operation id of the request, e.g. `getBlock`. */
  readonly operationId: string;
  constructor(init: {
    status: number;
    message: string;
    requestId: string | null;
    retryAfter: number | null;
    body: ErrorBody | null;
    operationId: string;
  }) {
    super(init.message, isRetryableStatus(init.status));
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.body = init.body;
    this.operationId = init.operationId;
  }
}
