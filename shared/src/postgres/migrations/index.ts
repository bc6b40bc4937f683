import { controlPlane } from './0001_control_plane';
import { sessions } from './0002_sessions';
import { passwordResets } from './0003_password_resets';
import { alerts } from './0005_alerts';
import { webhookFormat } from './0006_webhook_format';
import type { PostgresMigration } from './types';

/** Every migration in order; a new file is added here with the next id. */
export const postgresMigrations: PostgresMigration[] = [
  controlPlane,
  sessions,
  passwordResets,
  alerts,
  webhookFormat,
];

export type { PostgresMigration } from './types';
