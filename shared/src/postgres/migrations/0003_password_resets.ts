import type { PostgresMigration } from './types';

/**
 * One-time password reset tokens, printed by `warden users reset-password` (there is no mail server)
 * and spent by POST /api/v1/auth/reset. Only the token's SHA-256 is stored; a token lasts an hour and
 * works once.
 */
export const passwordResets: PostgresMigration = {
  id: 3,
  name: 'password_resets',
  sql: `
CREATE TABLE IF NOT EXISTS password_resets (
  id          text PRIMARY KEY,
  user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash  text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_by  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX IF NOT EXISTS password_resets_user ON password_resets (user_id);
`,
};
