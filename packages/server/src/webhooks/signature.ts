import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries a delivery's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'Explorer-Signature';

/** Seconds a signature's timestamp may differ from the receiver's clock by default. */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

const hmac = (secret: string, timestamp: number, body: string | Uint8Array): Buffer =>
  createHmac('sha256', secret)
    .update(`${timestamp}.`)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest();

/**
 * The `Explorer-Signature` value of a body sent at `timestamp` (unix seconds): the HMAC-SHA256, keyed with the
 * whole secret, of `<timestamp>.<body>`, in hex.
 * @example signWebhookPayload({ secret: hook.secret, body, timestamp: Math.floor(Date.now() / 1000) })
 */
export function signWebhookPayload(opts: { secret: string; body: string; timestamp: number }): string {
  return `t=${opts.timestamp},v1=${hmac(opts.secret, opts.timestamp, opts.body).toString('hex')}`;
}

/** What checking a signature found: valid (and when it was signed), or why not. */
export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: string };

/** What a receiver checks a delivery with. */
export interface VerifyWebhookOptions {
  /** The webhook's secret (`whsec_…`), as `webhooks add` printed it. */
  secret: string;
  /** The `Explorer-Signature` header as received. */
  header: string | null | undefined;
  /** The request body exactly as received (raw text or bytes, before any JSON parsing). */
  body: string | Uint8Array;
  /** Largest difference, in seconds, between the signed timestamp and `now` (default 300): older is a replay. */
  toleranceSeconds?: number;
  /** The receiver's clock, in milliseconds since the epoch (default Date.now()). */
  now?: number;
}

/**
 * Checks a delivery's `Explorer-Signature` against the raw body and the secret: a `v1` signature must match
 * (compared in constant time) and its timestamp must be within the tolerance, so a captured delivery cannot
 * be replayed later.
 * @example
 * const check = verifyWebhookSignature({ secret, header: req.headers['explorer-signature'], body: rawBody });
 * if (!check.ok) return res.writeHead(400).end(check.reason);
 */
export function verifyWebhookSignature(opts: VerifyWebhookOptions): SignatureCheck {
  const tolerance = opts.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  if (!opts.header) return { ok: false, reason: `no ${SIGNATURE_HEADER} header` };
  let timestamp: number | null = null;
  const signatures: Buffer[] = [];
  for (const part of opts.header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === null) return { ok: false, reason: `${SIGNATURE_HEADER} has no timestamp (t=)` };
  if (signatures.length === 0) return { ok: false, reason: `${SIGNATURE_HEADER} has no v1 signature` };
  const now = (opts.now ?? Date.now()) / 1000;
  if (Math.abs(now - timestamp) > tolerance)
    return { ok: false, reason: `the timestamp is more than ${tolerance} s from now (a replay?)` };
  const expected = hmac(opts.secret, timestamp, opts.body);
  // Every candidate is compared, so the time taken does not tell which one (or how much of it) matched.
  let match = false;
  for (const s of signatures) match = timingSafeEqual(s, expected) || match;
  return match
    ? { ok: true, timestamp }
    : { ok: false, reason: 'no signature matches the body and the secret' };
}
