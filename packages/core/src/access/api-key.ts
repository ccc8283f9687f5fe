import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every key starts with this, so leaked keys are easy to recognise (and to scan for). */
export const API_KEY_PREFIX = 'exk_';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const ID_LENGTH = 10;
const SECRET_LENGTH = 32;
const CHECK_LENGTH = 6;
const KEY_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}([a-z2-7]{${ID_LENGTH}})_([a-z2-7]{${SECRET_LENGTH}})([a-z2-7]{${CHECK_LENGTH}})$`,
);
const ID_PATTERN = new RegExp(`^[a-z2-7]{${ID_LENGTH}}$`);

/** Longest string worth parsing as a key; anything longer is malformed without a look. */
export const API_KEY_LENGTH = API_KEY_PREFIX.length + ID_LENGTH + 1 + SECRET_LENGTH + CHECK_LENGTH;

function base32(bytes: Uint8Array): string {
  // 256 is a multiple of 32, so `byte & 31` keeps every character equally likely.
  let out = '';
  for (const b of bytes) out += ALPHABET[b & 31];
  return out;
}

// 30 bits of SHA-256 over everything before the checksum: a typo is caught with certainty 1 - 2^-30.
function checksum(body: string): string {
  const digest = createHash('sha256').update(body).digest();
  let bits = digest.readUInt32BE(0) >>> 2;
  let out = '';
  for (let i = 0; i < CHECK_LENGTH; i++) {
    out = ALPHABET[bits & 31] + out;
    bits >>>= 5;
  }
  return out;
}

/** A newly generated key: the full secret (shown once) and its public id. */
export interface NewApiKey {
  id: string;
  key: string;
  /** SHA-256 (hex) of the full key: the only form that is stored. */
  hash: string;
}

/**
 * Generates a key `exk_<id 10>_<secret 32><checksum 6>` (lowercase base32; 160 random bits of secret).
 * @example const { id, key, hash } = generateApiKey()
 */
export function generateApiKey(random: (n: number) => Uint8Array = randomBytes): NewApiKey {
  const id = base32(random(ID_LENGTH));
  const body = `${API_KEY_PREFIX}${id}_${base32(random(SECRET_LENGTH))}`;
  const key = body + checksum(body);
  return { id, key, hash: hashApiKey(key) };
}

/** The key id of a well-formed key with a valid checksum, or null (no lookup is needed to refuse it). */
export function parseApiKey(key: string): { id: string } | null {
  if (key.length !== API_KEY_LENGTH) return null;
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  const body = key.slice(0, -CHECK_LENGTH);
  if (checksum(body) !== m[3]) return null;
  return { id: m[1]! };
}

/** True for a string shaped like a key id (`keys revoke <id>` checks it before asking the database). */
export function isApiKeyId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/** SHA-256 of the full key, hex. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Compares two hex hashes in constant time (for equal lengths; unequal lengths are simply unequal). */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
