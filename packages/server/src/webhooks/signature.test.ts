import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './backoff.js';
import { signWebhookPayload, verifyWebhookSignature } from './signature.js';

const secret = 'whsec_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const body = '{"id":"42","type":"block","at":"2025-01-01T00:00:00.000Z","data":{"height":7}}';
const t = 1_735_689_600;
const now = t * 1000;

/** The receiver's check as docs/webhooks.md shows it, with node:crypto alone. */
function docsVerify(header: string, raw: string, key: string, nowSeconds: number): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2)));
  const expected = createHmac('sha256', key).update(`${parts.t}.${raw}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return (
    Math.abs(nowSeconds - Number(parts.t)) <= 300 &&
    given.length === expected.length &&
    timingSafeEqual(given, expected)
  );
}

describe('webhook signatures', () => {
  it('signs t.body with HMAC-SHA256 of the secret, and verifies only the untouched body with that secret in time', () => {
    const header = signWebhookPayload({ secret, body, timestamp: t });
    expect(header).toMatch(/^t=1735689600,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature({ secret, header, body, now })).toEqual({ ok: true, timestamp: t });
    expect(verifyWebhookSignature({ secret, header, body: Buffer.from(body), now: now + 299_000 }).ok).toBe(
      true,
    );
    expect(docsVerify(header, body, secret, t + 10)).toBe(true);

    const tampered = body.replace('"height":7', '"height":8');
    expect(verifyWebhookSignature({ secret, header, body: tampered, now })).toEqual({
      ok: false,
      reason: 'no signature matches the body and the secret',
    });
    expect(docsVerify(header, tampered, secret, t)).toBe(false);
    expect(verifyWebhookSignature({ secret: `${secret}x`, header, body, now }).ok).toBe(false);
    expect(docsVerify(header, body, `${secret}x`, t)).toBe(false);
    // A captured delivery replayed later (or signed too far ahead) is refused.
    expect(verifyWebhookSignature({ secret, header, body, now: now + 301_000 })).toEqual({
      ok: false,
      reason: 'the timestamp is more than 300 s from now (a replay?)',
    });
    expect(verifyWebhookSignature({ secret, header, body, now: now - 301_000 }).ok).toBe(false);
    expect(
      verifyWebhookSignature({ secret, header, body, now: now + 3_000_000, toleranceSeconds: 3_600 }).ok,
    ).toBe(true);
    expect(docsVerify(header, body, secret, t + 301)).toBe(false);
    // Moving the timestamp breaks the signature, so it cannot be refreshed by a replayer.
    const moved = header.replace(`t=${t}`, `t=${t + 400}`);
    expect(verifyWebhookSignature({ secret, header: moved, body, now: now + 400_000 }).ok).toBe(false);
  });

  it('accepts any matching v1 among several, and refuses malformed headers with a reason', () => {
    const header = signWebhookPayload({ secret, body, timestamp: t });
    const other = signWebhookPayload({ secret: 'whsec_old', body, timestamp: t }).split(',')[1];
    expect(verifyWebhookSignature({ secret, header: `${header},${other}`, body, now }).ok).toBe(true);
    expect(verifyWebhookSignature({ secret, header: `t=${t},${other}`, body, now }).ok).toBe(false);
    const reason = (h: string | undefined) => {
      const r = verifyWebhookSignature({ secret, header: h, body, now });
      return r.ok ? null : r.reason;
    };
    expect(reason(undefined)).toBe('no Explorer-Signature header');
    expect(reason('v1=00')).toBe('Explorer-Signature has no timestamp (t=)');
    expect(reason(`t=${t}`)).toBe('Explorer-Signature has no v1 signature');
    expect(reason(`t=${t},v1=zz`)).toBe('Explorer-Signature has no v1 signature');
    expect(reason('garbage')).toBe('Explorer-Signature has no timestamp (t=)');
  });

  it('backs off exponentially from the base, capped', () => {
    const opts = { baseMs: 5_000, maxMs: 3_600_000 };
    expect([1, 2, 3, 4, 10, 11, 200].map((n) => retryDelayMs(n, opts))).toEqual([
      5_000, 10_000, 20_000, 40_000, 2_560_000, 3_600_000, 3_600_000,
    ]);
  });
});
