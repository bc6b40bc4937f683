import type { PostgresMigration } from './types';

/**
 * Alerts: a project's webhook endpoints (secrets encrypted with WARDEN_SECRET_KEY), its alert
 * rules, the alerts they raised (grouped by dedup key, with a count), the interactions each alert
 * counted (so a replayed detection is never counted twice), the outbox of deliveries the alerter
 * sends and retries, and the log of every attempt.
 */
export const alerts: PostgresMigration = {
  id: 5,
  name: 'alerts',
  sql: `
CREATE TABLE IF NOT EXISTS webhook_endpoints (
  id                     text PRIMARY KEY,
  project_id             text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  url                    text NOT NULL,
  description            text,
  events                 text[] NOT NULL DEFAULT '{threat_detected}',
  secret                 text NOT NULL,
  previous_secret        text,
  previous_secret_until  timestamptz,
  failing_since          timestamptz,
  disabled_at            timestamptz,
  disabled_reason        text,
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS webhook_endpoints_project ON webhook_endpoints (project_id);

CREATE TABLE IF NOT EXISTS alert_rules (
  id              text PRIMARY KEY,
  project_id      text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name            text NOT NULL,
  min_severity    text NOT NULL DEFAULT 'high' CHECK (min_severity IN ('low', 'medium', 'high', 'critical')),
  threat_types    text[] NOT NULL DEFAULT '{}',
  agents          text[] NOT NULL DEFAULT '{}',
  window_seconds  integer NOT NULL DEFAULT 600 CHECK (window_seconds BETWEEN 0 AND 86400),
  enabled         boolean NOT NULL DEFAULT true,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS alert_rules_project ON alert_rules (project_id);

CREATE TABLE IF NOT EXISTS alerts (
  id              text PRIMARY KEY,
  project_id      text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  dedup_key       text NOT NULL,
  rule_id         text NOT NULL,
  agent_id        text NOT NULL,
  threat_type     text NOT NULL,
  severity        text NOT NULL,
  interaction_id  text NOT NULL,
  alert           jsonb NOT NULL,
  count           integer NOT NULL DEFAULT 1,
  notified_count  integer NOT NULL DEFAULT 1,
  first_at        timestamptz NOT NULL DEFAULT now(),
  last_at         timestamptz NOT NULL DEFAULT now(),
  window_ends_at  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS alerts_open ON alerts (dedup_key, window_ends_at);
CREATE INDEX IF NOT EXISTS alerts_unnotified ON alerts (window_ends_at) WHERE count > notified_count;

CREATE TABLE IF NOT EXISTS alert_interactions (
  alert_id        text NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  dedup_key       text NOT NULL,
  interaction_id  text NOT NULL,
  PRIMARY KEY (dedup_key, interaction_id)
);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id            text PRIMARY KEY,
  endpoint_id   text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  alert_id      text REFERENCES alerts (id) ON DELETE SET NULL,
  event         text NOT NULL,
  body          text NOT NULL,
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts      integer NOT NULL DEFAULT 0,
  next_at       timestamptz NOT NULL DEFAULT now(),
  lease_until   timestamptz NOT NULL DEFAULT '-infinity',
  last_status   integer,
  last_error    text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  delivered_at  timestamptz
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_at) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at);

CREATE TABLE IF NOT EXISTS webhook_attempts (
  id                bigserial PRIMARY KEY,
  delivery_id       text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  endpoint_id       text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  at                timestamptz NOT NULL DEFAULT now(),
  status_code       integer,
  latency_ms        integer NOT NULL,
  error             text,
  response_excerpt  text
);
CREATE INDEX IF NOT EXISTS webhook_attempts_endpoint_at ON webhook_attempts (endpoint_id, at);
CREATE INDEX IF NOT EXISTS webhook_attempts_delivery ON webhook_attempts (delivery_id);
`,
};
