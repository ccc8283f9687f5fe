/**
 * API keys. Only the SHA-256 of a key is stored (hex): a leaked table gives no usable key. `id` is the
 * public part of the key (`exk_<id>_…`), so a presented key is found by id and its hash compared.
 */
export const apiKeysSchema = `
CREATE TABLE api_keys (
  id           text PRIMARY KEY CHECK (id ~ '^[a-z2-7]{10}$'),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  tier         text NOT NULL DEFAULT 'default' CHECK (tier ~ '^[a-z0-9][a-z0-9_-]{0,31}$'),
  key_hash     text NOT NULL CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz,
  last_used_at timestamptz
);
`;
