/** The base of every error the API answers with: a status and a message safe to show the client. */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 400: the request is malformed (bad parameter, cursor, key format…). */
export class BadRequestError extends ApiError {
  override readonly name = 'BadRequestError';
  constructor(message: string) {
    super(400, message);
  }
}

/** 401: a credential was sent and is not valid. */
export class UnauthorizedError extends ApiError {
  override readonly name = 'UnauthorizedError';
  constructor(message: string) {
    super(401, message, { 'www-authenticate': 'Bearer realm="explorer", ApiKey header="X-API-Key"' });
  }
}

/** 404: the addressed block or transaction (or its certificate), or the path, does not exist. */
export class NotFoundError extends ApiError {
  override readonly name = 'NotFoundError';
  constructor(message: string) {
    super(404, message);
  }
}

/** 405: the path exists but not for this method. */
export class MethodNotAllowedError extends ApiError {
  override readonly name = 'MethodNotAllowedError';
  constructor(method: string, allow: string[]) {
    super(405, `method ${method} is not allowed here; use ${allow.join(', ')}`, { allow: allow.join(', ') });
  }
}

/** 413: the request body is larger than the route takes. */
export class PayloadTooLargeError extends ApiError {
  override readonly name = 'PayloadTooLargeError';
  constructor(maxBytes: number) {
    super(413, `the request body is larger than ${maxBytes} bytes`);
  }
}

/** 429: the rate-limit bucket is empty; `retryAfter` is in seconds. */
export class RateLimitedError extends ApiError {
  override readonly name = 'RateLimitedError';
  constructor(readonly retryAfter: number) {
    super(429, `rate limit exceeded; retry after ${retryAfter} s`, { 'retry-after': String(retryAfter) });
  }
}

/** 503: a dependency (database, node, market provider) cannot answer now; the request may be retried. */
export class ServiceUnavailableError extends ApiError {
  override readonly name = 'ServiceUnavailableError';
  constructor(
    message: string,
    readonly retryAfter = 5,
  ) {
    super(503, message, { 'retry-after': String(retryAfter) });
  }
}

/**
 * 501: the service runs, but what was asked for is not configured on this server (market data without a
 * provider). Retrying does not help; the message says what the operator has to set.
 */
export class NotConfiguredError extends ApiError {
  override readonly name = 'NotConfiguredError';
  constructor(message: string) {
    super(501, message);
  }
}

/** 503: a query ran past the statement timeout and was cancelled. */
export class QueryTimeoutError extends ApiError {
  override readonly name = 'QueryTimeoutError';
  constructor() {
    super(503, 'the query took too long and was cancelled; retry later', { 'retry-after': '5' });
  }
}

/** The message of every unexpected failure: the requestId in meta is what ties it to the log. */
export const INTERNAL_ERROR_MESSAGE = 'internal server error; quote the requestId when reporting it';

/**
 * The one table from any thrown value to an HTTP status and a client-safe message.
 * Dependency failures are recognised by shape (a database or node error marks itself), never by message.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { name?: string; unavailable?: boolean; diskFull?: boolean; timedOut?: boolean };
  if (e?.name === 'DatabaseError') {
    if (e.timedOut) return new QueryTimeoutError();
    // A read meets a full disk only as a connection the server would not open (see DatabaseError.diskFull).
    if (e.unavailable || e.diskFull)
      return new ServiceUnavailableError('the database is unavailable; retry shortly');
  }
  if (e?.name === 'NodeUnavailableError')
    return new ServiceUnavailableError('the chain node is unreachable; retry shortly');
  return new ApiError(500, INTERNAL_ERROR_MESSAGE);
}
