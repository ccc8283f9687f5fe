import { describe, expect, it } from 'vitest';
import { etagOf, notModified, validators } from './conditional.js';

describe('conditional requests', () => {
  it('gives a body a weak ETag that changes with it', () => {
    expect(etagOf('"a":1')).toMatch(/^W\/"[\w-]+"$/);
    expect(etagOf('"a":1')).toBe(etagOf('"a":1'));
    expect(etagOf('"a":2')).not.toBe(etagOf('"a":1'));
  });

  it('answers 304 when If-None-Match names the ETag, among others or alone', () => {
    const etag = etagOf('"a":1');
    expect(notModified(etag, etag)).toBe(true);
    expect(notModified(`W/"other", ${etag}`, etag)).toBe(true);
    expect(notModified('W/"other"', etag)).toBe(false);
    expect(notModified(null, etag)).toBe(false);
  });

  it('lets HTTP caches keep an immutable body forever and revalidate the rest', () => {
    expect(validators('W/"x"', true)['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(validators('W/"x"', false)).toEqual({
      etag: 'W/"x"',
      'cache-control': 'public, max-age=0, must-revalidate',
    });
  });
});
