import { describe, expect, it } from 'vitest';
import { requestTarget } from './target.js';

describe('requestTarget', () => {
  it('gives the URL parser’s pathname and search for plain and unusual targets alike', () => {
    const urls = [
      'http://127.0.0.1:3000/v1/blocks/12',
      'http://x/v1/blocks?limit=5&cursor=abc-_.~',
      'http://x/v1/search?q=',
      'http://x/v1/search?',
      'http://x/v1/search?q=a?b',
      'http://x',
      'http://x/',
      'http://x/v1/blocks/../status',
      'http://x/v1/./status',
      'http://x/v1/..',
      'http://x/v1/a..b/.c',
      'http://x/v1/blocks/%41%2f',
      "http://x/v1/search?q='quoted'",
      'http://x/v1/search?q=a b',
      'http://x/v1/search?q=a#frag',
      'http://x/v1/a|b^c{d}',
      'http://user:pw@x:8080/v1/status?x=1',
      'http://[::1]:3000/v1/status',
      'https://x/v1/status',
      'HTTP://X/v1/Status',
      'http://x?q=/v1/status',
      'http://x#/v1/status',
      'http://x\\v1/status',
      'http://x/v1/status\\..\\blocks',
    ];
    for (const url of urls) {
      const parsed = new URL(url);
      expect(requestTarget(url), url).toEqual({ pathname: parsed.pathname, search: parsed.search });
    }
  });

  it('throws for a malformed URL, as the URL parser does', () => {
    expect(() => requestTarget('not a url')).toThrow();
    expect(() => requestTarget('/v1/status')).toThrow();
  });
});
