import type { ApiAnswer } from './answer.js';

const EXPOSED_HEADERS =
  'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag';

/** The CORS headers of every answer: any page on `origin` may read the body and the headers a client needs. */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'Origin, X-API-Key, Authorization',
  };
}

/**
 * The answer to a CORS preflight (OPTIONS): 204 with the methods and request headers allowed, which browsers
 * may reuse for a day. Preflights are not counted against any bucket (see access/rate-limit.ts).
 */
export function preflight(requestId: string, origin: string): ApiAnswer {
  return {
    status: 204,
    headers: {
      'x-request-id': requestId,
      ...corsHeaders(origin),
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers':
        'X-API-Key, Authorization, Content-Type, If-None-Match, X-Request-Id, Last-Event-ID',
      'access-control-max-age': '86400',
      allow: 'GET, HEAD, OPTIONS',
    },
    body: null,
  };
}
