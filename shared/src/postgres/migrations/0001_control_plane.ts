import type { PostgresMigration } from './types';

const roles = `('owner', 'admin', 'member', 'viewer')`;

/**
 * The control plane: who may sign in (users, organisations, memberships, invitations), what they own
 * (projects — the data plane's "account", whose id is the accountId on every record — and their API
 * keys), what keys did (usage per day), agents' metadata, and the audit log.
 *
 * Keys are stored as SHA-256 hashes only. Projects created by `warden keys create --account` before
 * any organisation exists have no organisation until one claims them. `version` on projects and
 * keys increases on every change; the Redis cache and each ingest process keep the newest copy.
 */
export const controlPlane: PostgresMigration = {
  id: 1,
  name: 'control_plane',
  sql: `
CREATE TABLE IF NOT EXISTS organisations (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS organisations_name ON organisations (lower(name));

CREATE TABLE IF NOT EXISTS users (
  id             text PRIMARY KEY,
  email          text NOT NULL,
  password_hash  text,
  name           text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  disabled_at    timestamptz
);
CREATE UNIQUE INDEX IF NOT EXISTS users_email ON users (lower(email));

CREATE TABLE IF NOT EXISTS memberships (
  organisation_id  text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  user_id          text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role             text NOT NULL CHECK (role IN ${roles}),
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organisation_id, user_id)
);
CREATE INDEX IF NOT EXISTS memberships_user ON memberships (user_id);

CREATE TABLE IF NOT EXISTS projects (
  id               text PRIMARY KEY,
  organisation_id  text REFERENCES organisations (id) ON DELETE RESTRICT,
  name             text NOT NULL,
  tier             text NOT NULL CHECK (tier IN ('starter', 'free', 'professional', 'business', 'enterprise')),
  limits           jsonb NOT NULL DEFAULT '{}'::jsonb,
  settings         jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  version          bigint NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS projects_organisation ON projects (organisation_id);

CREATE TABLE IF NOT EXISTS api_keys (
  id            text PRIMARY KEY,
  project_id    text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  hash          text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$'),
  hint          text NOT NULL,
  name          text,
  scopes        text[] NOT NULL CHECK (cardinality(scopes) > 0),
  created_by    text REFERENCES users (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  expires_at    timestamptz,
  revoked_at    timestamptz,
  replaced_by   text REFERENCES api_keys (id) ON DELETE SET NULL,
  version       bigint NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS api_keys_project ON api_keys (project_id, created_at);

CREATE TABLE IF NOT EXISTS key_usage (
  key_id    text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  day       date NOT NULL,
  requests  bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day)
);

CREATE TABLE IF NOT EXISTS agents (
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  agent_id     text NOT NULL,
  name         text,
  description  text,
  canaries     text[] NOT NULL DEFAULT '{}',
  archived_at  timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, agent_id)
);

CREATE TABLE IF NOT EXISTS invitations (
  id               text PRIMARY KEY,
  organisation_id  text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  email            text NOT NULL,
  role             text NOT NULL CHECK (role IN ${roles}),
  token_hash       text NOT NULL UNIQUE,
  invited_by       text REFERENCES users (id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  accepted_at      timestamptz,
  revoked_at       timestamptz
);
CREATE INDEX IF NOT EXISTS invitations_organisation ON invitations (organisation_id);

CREATE TABLE IF NOT EXISTS audit_log (
  id               bigserial PRIMARY KEY,
  at               timestamptz NOT NULL DEFAULT now(),
  organisation_id  text REFERENCES organisations (id) ON DELETE SET NULL,
  project_id       text,
  actor            text NOT NULL,
  action           text NOT NULL,
  target           text,
  details          jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX IF NOT EXISTS audit_log_organisation_at ON audit_log (organisation_id, at);
CREATE INDEX IF NOT EXISTS audit_log_project_at ON audit_log (project_id, at);
`,
};
