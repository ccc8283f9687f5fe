import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { amendResponse, headerOf, partsOf, type ResponseParts, respondWith } from './response-parts.js';

describe('response parts', () => {
  it('keeps an answer’s parts beside c.res while middleware amends it, and forgets them once c.res is replaced', async () => {
    const seen: (ResponseParts | undefined)[] = [];
    const app = new Hono();
    app.use(async (c, next) => {
      await next();
      seen.push(partsOf(c));
      c.res = undefined;
      c.res = new Response('other', { status: 202 });
      seen.push(partsOf(c));
    });
    app.use(async (c, next) => {
      await next();
      amendResponse(c, { 'x-extra': '1' }, 'amended');
      expect(headerOf(c, 'x-extra')).toBe('1');
    });
    app.get('/', (c) =>
      respondWith(c, { status: 200, headers: { 'content-type': 'text/plain' }, body: 'hi' }),
    );

    const res = await app.request('/');
    expect(res.status).toBe(202);
    expect(seen[0]).toEqual({
      status: 200,
      headers: { 'content-type': 'text/plain', 'x-extra': '1' },
      body: 'amended',
    });
    expect(seen[1]).toBeUndefined();
  });

  it('amends any other response in place', async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      await next();
      expect(partsOf(c)).toBeUndefined();
      amendResponse(c, { 'x-extra': '1' });
    });
    app.get('/', (c) => c.text('plain'));
    const res = await app.request('/');
    expect(res.headers.get('x-extra')).toBe('1');
    expect(await res.text()).toBe('plain');
  });
});
