import type { PostgresMigration } from './types';

/**
 * How an endpoint wants its deliveries: `standard` (the JSON payload, Standard Webhooks headers) or
 * `slack` (a Slack incoming-webhook message, `{"text": …}`, signed the same way).
 */
export const webhookFormat: PostgresMigration = {
  id: 6,
  name: 'webhook_format',
  sql: `
ALTER TABLE webhook_endpoints ADD COLUMN IF NOT EXISTS format text NOT NULL DEFAULT 'standard';
ALTER TABLE webhook_endpoints DROP CONSTRAINT IF EXISTS webhook_endpoints_format;
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_format CHECK (format IN ('standard', 'slack'));
`,
};
