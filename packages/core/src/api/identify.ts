import { randomUUID } from 'node:crypto';
import { ANONYMOUS } from '../access/rate-limit.js';
import { BadRequestError, UnauthorizedError } from '../errors.js';
import type { Identity } from '../route.js';

/** Verifies a presented API key; throws UnauthorizedError for unknown, revoked or malformed keys. */
export type Authenticator = (key: string) => Promise<Identity>;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request: the client's X-Request-Id when well formed, else a new UUID.
 * @example requestIdOf(new Headers({ 'x-request-id': 'abc' })) // 'abc'
 */
export function requestIdOf(headers: Headers): string {
  const incoming = headers.get('x-request-id');
  return incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** The API key a request presents (X-API-Key or `Authorization: Bearer`), or null; throws on a malformed or doubled one. */
export function presentedKey(headers: Headers): string | null {
  const header = headers.get('x-api-key');
  const auth = headers.get('authorization');
  let bearer: string | null = null;
  if (auth !== null) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) throw new UnauthorizedError('Authorization header must be "Bearer <API key>"');
    bearer = m[1]!;
  }
  if (header !== null && bearer !== null && header.trim() !== bearer) {
    throw new BadRequestError('two different API keys were sent (X-API-Key and Authorization); send one');
  }
  const key = (header ?? bearer)?.trim() ?? null;
  if (key === '') throw new UnauthorizedError('the API key is empty');
  return key;
}

/** Who a request is counted and served as, and why its key was refused (answered once it is counted). */
export interface Caller {
  identity: Identity;
  refused: unknown;
}

const anonymous: Caller = Object.freeze({ identity: ANONYMOUS, refused: null });

/**
 * Identifies the caller: at once when no key is presented (or it is refused before verifying), else once the
 * key is verified. A refused key does not throw here: the request counts as anonymous first, so a caller
 * guessing keys is rate limited like any other, and is then answered with the refusal.
 */
export function identify(
  headers: Headers,
  authenticate: Authenticator | undefined,
): Caller | Promise<Caller> {
  let verified: Promise<Identity>;
  try {
    const key = presentedKey(headers);
    if (key === null) return anonymous;
    if (!authenticate) throw new UnauthorizedError('unknown API key');
    verified = authenticate(key);
  } catch (err) {
    return { identity: ANONYMOUS, refused: err };
  }
  return verified.then(
    (identity) => ({ identity, refused: null }),
    (err: unknown) => ({ identity: ANONYMOUS, refused: err }),
  );
}
