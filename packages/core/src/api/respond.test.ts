import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../errors.js';
import { etagOf } from './conditional.js';
import { corsHeaders, preflight } from './cors.js';
import { renderedBody } from './render.js';
import { bodyAnswer, errorAnswer, type Reply, startMeta, successMeta } from './respond.js';

const reply = (over: Partial<Reply> = {}): Reply => ({
  requestId: 'req-1',
  cors: corsHeaders('*'),
  head: false,
  rateLimit: { bucket: 'anon:x', limit: 10, remaining: 9, reset: 99, windowSeconds: 60 },
  ...over,
});
const tipInfo = { height: 10, hash: 'ab', txHeight: 10, time: 1 };
const base = startMeta('req-1', tipInfo, null, 0);
const meta = successMeta(base, false, tipInfo);

describe('answers', () => {
  it('wraps a rendered body in the success envelope, with its validators and the bucket', () => {
    const rendered = renderedBody('"a":1', false);
    expect(rendered.etag).toBe(etagOf('"a":1'));
    const a = bodyAnswer(reply(), null, rendered, meta);
    expect(a.status).toBe(200);
    expect(a.body).toBe(JSON.stringify({ ok: true, a: 1, meta }));
    expect(a.headers['content-length']).toBe(String(Buffer.byteLength(a.body!)));
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

  it('splices each request’s meta into the bytes rendered once: the same bytes as serialising the whole envelope', () => {
    const members = JSON.stringify({ block: { hash: 'é✓', n: 1 }, list: [1, 'x"y'] }).slice(1, -1);
    const rendered = renderedBody(members, true);
    const tip = { height: 10, hash: 'ab', txHeight: 9, time: 1 };
    for (const [id, cached] of [
      ['req-1', false],
      ['req-2', true],
    ] as const) {
      const m = successMeta(startMeta(id, tip, 12, 1_000), cached, tip);
      const a = bodyAnswer(reply({ requestId: id }), null, rendered, m);
      const whole = {
        ok: true,
        ...JSON.parse(`{${members}}`),
        meta: {
          requestId: id,
          indexedTip: 10,
          nodeHeight: 12,
          servedAt: '1970-01-01T00:00:01.000Z',
          cached,
          indexedTipHash: 'ab',
          txIndexedTip: 9,
        },
      };
      expect(a.body).toBe(JSON.stringify(whole));
      expect(a.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(whole))));
      expect(a.headers.etag).toBe(etagOf(members));
      expect(a.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect(renderedBody('', false).head).toBe('{"ok":true,"meta":');
  });

  it('answers an error with its status and headers, never cached, and meta without the success fields', () => {
    const a = errorAnswer(reply(), new RateLimitedError(5), meta);
    expect(a.status).toBe(429);
    expect(a.headers).toMatchObject({
      'retry-after': '5',
      'cache-control': 'no-store',
      'x-ratelimit-limit': '10',
    });
    expect(JSON.parse(a.body as string)).toEqual({
      ok: false,
      error: 'rate limit exceeded; retry after 5 s',
      meta: base,
    });
  });

  it('answers a CORS preflight with 204 and no rate-limit headers', () => {
    const a = preflight('req-1', 'https://example.org');
    expect(a).toMatchObject({ status: 204, body: null });
    expect(a.headers['access-control-allow-origin']).toBe('https://example.org');
    expect(a.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
