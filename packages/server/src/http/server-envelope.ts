// The request id the API would use, for the answers the server gives itself.
export { requestIdOf } from '@explorer/core';

/**
 * The error envelope for answers the server gives without the API (while it starts, a 500 outside the API,
 * paths outside /v1): the tip and node height are not known there, so both are -1, the integer the contract
 * types them as with the meaning "not known yet". Refusals inside /v1 are answered by the API itself, with
 * the real figures (see client-errors.ts and middleware/request-bounds.ts).
 * @example serverErrorBody('req-1', 'the request URL is too long')
 */
export function serverErrorBody(requestId: string, error: string): string {
  const meta = { requestId, indexedTip: -1, nodeHeight: -1, servedAt: new Date().toISOString() };
  return JSON.stringify({ ok: false, error, meta });
}
