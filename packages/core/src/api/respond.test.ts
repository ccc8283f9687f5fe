import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../errors.js';
import { etagOf } from './conditional.js';
import { corsHeaders, preflight } from './cors.js';
import { bodyAnswer, errorAnswer, type Reply, startMeta } from './respond.js';

const reply = (over: Partial<Reply> = {}): Reply => ({
  requestId: 'req-1',
  cors: corsHeaders('*'),
  head: false,
  rateLimit: { bucket: 'anon:x', limit: 10, remaining: 9, reset: 99, windowSeconds: 60 },
  ...over,
});
const meta = startMeta('req-1', { height: 10, hash: 'ab', txHeight: 10, time: 1 }, null, 0);

describe('answers', () => {
  it('wraps a rendered body in the success envelope, with its validators and the bucket', () => {
    const rendered = { text: '"a":1', etag: etagOf('"a":1'), immutable: false };
    const a = bodyAnswer(reply(), null, rendered, meta);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body!)).toEqual({ ok: true, a: 1, meta });
    expect(a.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': 'req-1',
      'access-control-allow-origin': '*',
      'x-ratelimit-remaining': '9',
      etag: rendered.etag,
      'cache-control': 'public, max-age=0, must-revalidate',
    });
    expect(bodyAnswer(reply({ head: true }), null, rendered, meta).body).toBeNull();
    const notModified = bodyAnswer(reply(), rendered.etag, rendered, meta);
    expect(notModified).toMatchObject({ status: 304, body: null, headers: { etag: rendered.etag } });
    expect(notModified.headers['content-type']).toBeUndefined();
  });

  it('answers an error with its status and headers, never cached, and meta without the success fields', () => {
    const a = errorAnswer(reply(), new RateLimitedError(5), { ...meta, cached: false });
    expect(a.status).toBe(429);
    expect(a.headers).toMatchObject({
      'retry-after': '5',
      'cache-control': 'no-store',
      'x-ratelimit-limit': '10',
    });
    expect(JSON.parse(a.body!)).toEqual({ ok: false, error: 'rate limit exceeded; retry after 5 s', meta });
  });

  it('answers a CORS preflight with 204 and no rate-limit headers', () => {
    const a = preflight('req-1', 'https://example.org');
    expect(a).toMatchObject({ status: 204, body: null });
    expect(a.headers['access-control-allow-origin']).toBe('https://example.org');
    expect(a.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
