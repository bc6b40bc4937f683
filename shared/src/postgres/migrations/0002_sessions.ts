import type { PostgresMigration } from './types';

/**
 * Dashboard sign-in sessions. PostgreSQL, not Redis, holds them: DESIGN.md keeps in Redis only what
 * can be rebuilt, and a session cannot be (losing Redis would sign everyone out), while revocation
 * must be authoritative at once on every API process. A session costs one primary-key read per
 * request, which the API's traffic (people at a dashboard) affords.
 *
 * Only SHA-256 hashes of the session token and of its CSRF token are stored, so a copy of the table
 * signs nobody in.
 */
export const sessions: PostgresMigration = {
  id: 2,
  name: 'sessions',
  sql: `
CREATE TABLE IF NOT EXISTS sessions (
  id               text PRIMARY KEY,
  token_hash       text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  csrf_hash        text NOT NULL CHECK (csrf_hash ~ '^[0-9a-f]{64}$'),
  user_id          text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organisation_id  text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_seen_at     timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  revoked_at       timestamptz,
  address          text,
  user_agent       text
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);
CREATE INDEX IF NOT EXISTS sessions_expires ON sessions (expires_at);
`,
};
