import { controlPlane } from './0001_control_plane';
import { sessions } from './0002_sessions';
import { alerts } from './0005_alerts';
import type { PostgresMigration } from './types';

/** Every migration in order; a new file is added here with the next id. */
export const postgresMigrations: PostgresMigration[] = [controlPlane, sessions, alerts];

export type { PostgresMigration } from './types';
