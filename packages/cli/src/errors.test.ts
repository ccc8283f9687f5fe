import {
  ExplorerApiError,
  ExplorerNetworkError,
  ExplorerTimeoutError,
  ExplorerValidationError,
} from '@explorer/client';
import { describe, expect, it } from 'vitest';
import {
  CliInterruptedError,
  CliUsageError,
  EXIT,
  errorLine,
  exitCodeForStatus,
  exitCodeOf,
} from './errors.js';

const apiError = (status: number, init: { retryAfter?: number; requestId?: string | null } = {}) =>
  new ExplorerApiError({
    status,
    message: status === 429 ? 'rate limit exceeded; retry after 30 s' : `failed with ${status}`,
    requestId: init.requestId === undefined ? 'req-1' : init.requestId,
    retryAfter: init.retryAfter ?? null,
    body: null,
    operationId: 'getStatus',
  });

describe('the error table', () => {
  it('maps statuses to exit codes', () => {
    expect([400, 401, 403, 404, 405, 429, 500, 503].map(exitCodeForStatus)).toEqual([4, 5, 5, 3, 1, 6, 7, 7]);
    expect(exitCodeOf(apiError(404))).toBe(EXIT.notFound);
    expect(exitCodeOf(apiError(503))).toBe(EXIT.server);
  });

  it('maps each of the SDK’s errors, an abort, its own errors and anything else to an exit code', () => {
    const table: [unknown, number][] = [
      [new ExplorerNetworkError('http://x/v1/status', new Error('connect ECONNREFUSED')), 8],
      [new ExplorerTimeoutError('http://x/v1/status', 50), 8],
      [new ExplorerValidationError('getStatus', 'the body is not JSON', '<html>'), 7],
      [new DOMException('This operation was aborted', 'AbortError'), 130],
      [new CliUsageError('--max needs --all'), 2],
      [new CliInterruptedError(), 130],
      [new TypeError('a bug'), 1],
      ['a string', 1],
    ];
    for (const [err, code] of table) expect(exitCodeOf(err), String(err)).toBe(code);
  });

  it('says an API error with its request id, and a Retry-After it did not wait for with --max-wait', () => {
    expect(errorLine(apiError(404))).toBe('error: failed with 404 (requestId req-1)');
    expect(errorLine(apiError(404, { requestId: null }))).toBe('error: failed with 404');
    const tooLong = apiError(429, { retryAfter: 30 });
    expect(errorLine(tooLong, { maxWaitSeconds: 5 })).toBe(
      'error: rate limit exceeded; retry after 30 s (Retry-After 30 s is longer than --max-wait 5 s) (requestId req-1)',
    );
    // Waited for but still refused (the retries ran out): nothing about --max-wait.
    expect(errorLine(tooLong, { maxWaitSeconds: 60 })).toBe(
      'error: rate limit exceeded; retry after 30 s (requestId req-1)',
    );
    expect(errorLine(apiError(503, { retryAfter: 30 }), { maxWaitSeconds: 0 })).toContain(
      '(Retry-After 30 s is longer than --max-wait 0 s)',
    );
  });

  it('says the SDK’s message for the others, a hint for a timeout, and “interrupted” for Ctrl-C', () => {
    expect(errorLine(new ExplorerTimeoutError('http://x/v1/status', 50))).toBe(
      'error: no answer from http://x/v1/status within 50 ms (see --timeout)',
    );
    const cause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:2') });
    expect(errorLine(new ExplorerNetworkError('http://127.0.0.1:2/v1/status', cause))).toBe(
      'error: could not reach http://127.0.0.1:2/v1/status: fetch failed (connect ECONNREFUSED 127.0.0.1:2)',
    );
    expect(errorLine(new DOMException('This operation was aborted', 'AbortError'))).toBe(
      'error: interrupted',
    );
    expect(errorLine(new CliUsageError('--max needs --all'))).toBe('error: --max needs --all');
    expect(errorLine('a string')).toBe('error: a string');
  });
});
