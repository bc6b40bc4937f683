import { pino, type Logger } from 'pino';

/** The one logger factory: JSON lines on stdout, level from LOG_LEVEL. */
export function createLogger(name: string): Logger {
  return pino({ name, level: process.env.LOG_LEVEL ?? 'info' });
}

export type { Logger };
