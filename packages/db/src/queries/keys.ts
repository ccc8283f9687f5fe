import type { Sql } from '../sql.js';

/** An API key as stored: never the key, only its SHA-256. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  tier: string;
  /** SHA-256 (hex) of the full key. */
  keyHash: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** An API key as listed to operators: everything but the hash. */
export type ApiKeyListing = Omit<ApiKeyRecord, 'keyHash'>;

interface KeyRow {
  id: string;
  name: string;
  tier: string;
  key_hash?: string;
  created_at: Date | string;
  revoked_at: Date | string | null;
  last_used_at: Date | string | null;
}

const iso = (v: Date | string | null): string | null =>
  v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString();

function listing(r: KeyRow): ApiKeyListing {
  return {
    id: r.id,
    name: r.name,
    tier: r.tier,
    createdAt: iso(r.created_at)!,
    revokedAt: iso(r.revoked_at),
    lastUsedAt: iso(r.last_used_at),
  };
}

/** Stores a new key's hash; returns the stored record (without the hash). */
export async function insertApiKey(
  sql: Sql,
  key: { id: string; name: string; tier: string; keyHash: string },
): Promise<ApiKeyListing> {
  const [row] = await sql.query<KeyRow>(
    `INSERT INTO api_keys (id, name, tier, key_hash) VALUES ($1, $2, $3, $4)
     RETURNING id, name, tier, created_at, revoked_at, last_used_at`,
    [key.id, key.name, key.tier, key.keyHash],
    'keys.insert',
  );
  return listing(row!);
}

/** The key with this id, hash included (for verification), or null. */
export async function findApiKey(sql: Sql, id: string): Promise<ApiKeyRecord | null> {
  const [row] = await sql.query<KeyRow>(
    'SELECT id, name, tier, key_hash, created_at, revoked_at, last_used_at FROM api_keys WHERE id = $1',
    [id],
    'keys.find',
  );
  return row ? { ...listing(row), keyHash: row.key_hash! } : null;
}

/** Every key, oldest first, without hashes. */
export async function listApiKeys(sql: Sql): Promise<ApiKeyListing[]> {
  const rows = await sql.query<KeyRow>(
    'SELECT id, name, tier, created_at, revoked_at, last_used_at FROM api_keys ORDER BY created_at, id',
    [],
    'keys.list',
  );
  return rows.map(listing);
}

/** Revokes a key; returns what happened (`revoked`, `already-revoked` or `unknown`). */
export async function revokeApiKey(sql: Sql, id: string): Promise<'revoked' | 'already-revoked' | 'unknown'> {
  const rows = await sql.query<{ was_revoked: boolean }>(
    `WITH old AS (SELECT id, revoked_at IS NOT NULL AS was_revoked FROM api_keys WHERE id = $1)
     UPDATE api_keys k SET revoked_at = COALESCE(k.revoked_at, now())
     FROM old WHERE k.id = old.id RETURNING old.was_revoked`,
    [id],
    'keys.revoke',
  );
  const row = rows[0];
  if (!row) return 'unknown';
  return row.was_revoked ? 'already-revoked' : 'revoked';
}

/** Records that a key was used just now. */
export async function touchApiKey(sql: Sql, id: string): Promise<void> {
  await sql.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [id], 'keys.touch');
}
