import { randomUUID } from 'node:crypto';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id the API would use: the client's X-Request-Id when well formed, else a new UUID. */
export function requestIdOf(headers: Headers): string {
  const incoming = headers.get('x-request-id');
  return incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The error envelope for answers the server gives before the API reads the index (414, 431, a 500 outside
 * the API): the tip and node height are not known there, so they are -1 and null.
 * @example serverErrorBody('req-1', 'the request URL is too long')
 */
export function serverErrorBody(requestId: string, error: string): string {
  const meta = { requestId, indexedTip: -1, nodeHeight: null, servedAt: new Date().toISOString() };
  return JSON.stringify({ ok: false, error, meta });
}
