import { describe, expect, it } from 'vitest';
import { BadRequestError, UnauthorizedError } from '../errors.js';
import { identify, presentedKey, requestIdOf } from './identify.js';

const headers = (h: Record<string, string>) => new Headers(h);

describe('identify', () => {
  it('keeps a well-formed X-Request-Id and makes one up otherwise', () => {
    expect(requestIdOf(headers({ 'x-request-id': 'req-1' }))).toBe('req-1');
    expect(requestIdOf(headers({ 'x-request-id': 'no spaces' }))).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reads the key from X-API-Key or a Bearer token, and refuses two different ones', () => {
    expect(presentedKey(headers({}))).toBeNull();
    expect(presentedKey(headers({ 'x-api-key': ' k1 ' }))).toBe('k1');
    expect(presentedKey(headers({ authorization: 'bearer k1' }))).toBe('k1');
    expect(presentedKey(headers({ 'x-api-key': 'k1', authorization: 'Bearer k1' }))).toBe('k1');
    expect(() => presentedKey(headers({ 'x-api-key': 'k1', authorization: 'Bearer k2' }))).toThrow(
      BadRequestError,
    );
    expect(() => presentedKey(headers({ authorization: 'Basic abc' }))).toThrow(UnauthorizedError);
    expect(() => presentedKey(headers({ 'x-api-key': ' ' }))).toThrow(UnauthorizedError);
  });

  it('counts a refused key as anonymous and keeps the refusal for the answer', async () => {
    const key = { type: 'key' as const, keyId: 'id', name: 'acme', tier: 'pro' };
    expect(await identify(headers({ 'x-api-key': 'good' }), async () => key)).toEqual({
      identity: key,
      refused: null,
    });
    const noStore = await identify(headers({ 'x-api-key': 'k' }), undefined);
    expect(noStore.identity).toEqual({ type: 'anonymous' });
    expect(noStore.refused).toBeInstanceOf(UnauthorizedError);
    const refused = await identify(headers({ 'x-api-key': 'k' }), async () => {
      throw new UnauthorizedError('API key is unknown or revoked');
    });
    expect(refused).toMatchObject({
      identity: { type: 'anonymous' },
      refused: expect.any(UnauthorizedError),
    });
  });
});
