import { createRequire } from 'node:module';
import { isatty } from 'node:tty';
import { pino, type DestinationStream, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { logFormat, logLevel } from './config';

let pretty: DestinationStream | null | undefined;

/**
 * On a terminal (or with WARDEN_LOG_FORMAT=pretty), pino-pretty's readable lines; loaded only then,
 * so an install without it (a production image) still logs JSON. fd 1, not process.stdout: worker
 * threads write there too.
 */
function prettyStream(): DestinationStream | undefined {
  if (pretty === undefined) {
    pretty = null;
    const format = logFormat();
    if (format === 'pretty' || (format === undefined && isatty(1))) {
      try {
        const build = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
        pretty = build({ sync: true, singleLine: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' });
      } catch {
        // Not installed: JSON lines.
      }
    }
  }
  return pretty ?? undefined;
}

/** The one logger factory: JSON lines on stdout (readable ones on a terminal), level from LOG_LEVEL. */
export function createLogger(name: string): Logger {
  const level = logLevel();
  const stream = prettyStream();
  return stream ? pino({ name, level }, stream) : pino({ name, level });
}

export type { Logger };
