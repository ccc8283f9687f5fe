import { esploraProtocol } from '@explorer/core';
import { describe, expect, it } from 'vitest';
import { startingResponse } from './http-listener.js';

describe('the answer before the app is ready', () => {
  const protocols = [esploraProtocol('/api')];

  it('is a 503 envelope for /v1, to retry after a second', async () => {
    const res = startingResponse(new Request('http://x/v1/status'), protocols);
    expect([res.status, res.headers.get('retry-after'), res.headers.get('content-type')]).toEqual([
      503,
      '1',
      'application/json; charset=utf-8',
    ]);
    expect(await res.json()).toMatchObject({ ok: false, error: 'the explorer is starting; retry shortly' });
  });

  it("is in the protocol's words under its prefix: plain text for an Esplora client", async () => {
    const res = startingResponse(new Request('http://x/api/blocks/tip/height'), protocols);
    expect([res.status, res.headers.get('retry-after'), res.headers.get('content-type')]).toEqual([
      503,
      '1',
      'text/plain',
    ]);
    expect(await res.text()).toBe('the explorer is starting; retry shortly');
    // Without the adapter mounted, /api is nobody's: the envelope.
    const off = startingResponse(new Request('http://x/api/blocks/tip/height'), []);
    expect(off.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});
