import { pino, type Logger } from 'pino';
import { logLevel } from './config';

/** The one logger factory: JSON lines on stdout, level from LOG_LEVEL. */
export function createLogger(name: string): Logger {
  return pino({ name, level: logLevel() });
}

export type { Logger };
