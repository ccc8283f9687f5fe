/** The path and query of a request URL, as the URL parser serialises them. */
export interface RequestTarget {
  /** As `URL.pathname`. */
  pathname: string;
  /** As `URL.search`: empty, or `?` and the query. */
  search: string;
}

// A target made only of characters the URL parser serialises unchanged (no percent escapes, quotes, spaces or
// fragment), so slicing it gives what parsing would. Dot segments are resolved by the parser, so they too go
// the slow way.
const PLAIN_TARGET = /^\/[\w\-.~!$&()*+,;=:@/]*(?:\?[\w\-.~!$&()*+,;=:@/?]*)?$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;
// Host, port and user info made of plain characters: nothing the parser rewrites or reads as a path or query.
const PLAIN_ORIGIN = /^https?:\/\/[\w\-.:@[\]]+$/;

/**
 * The path and query of an absolute request URL. A plain target (the common case) is sliced out of the string,
 * which is what the URL parser would give at a fraction of its cost; anything else is parsed. Throws what the
 * URL constructor throws for a malformed URL.
 * @example requestTarget('http://x/v1/blocks?limit=5') // { pathname: '/v1/blocks', search: '?limit=5' }
 */
export function requestTarget(url: string): RequestTarget {
  const scheme = url.indexOf('://');
  const start = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
  if (start > 0) {
    const target = url.slice(start);
    if (PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target) && PLAIN_ORIGIN.test(url.slice(0, start))) {
      const q = target.indexOf('?');
      if (q < 0) return { pathname: target, search: '' };
      // An empty query serialises as no query.
      return { pathname: target.slice(0, q), search: q === target.length - 1 ? '' : target.slice(q) };
    }
  }
  const parsed = new URL(url);
  return { pathname: parsed.pathname, search: parsed.search };
}
