// Structured JSON logs (pino). Every request logs through a child carrying its correlation id. Never log PHI,
// raw X12, tokens or secrets: the redact list is a backstop, not permission.
import pino, { type Logger } from 'pino';
import { getConfig } from './config';

export type { Logger };

let root: Logger | undefined;

export function getLogger(): Logger {
  root ??= pino({
    level: getConfig().logLevel,
    base: { service: 'clinic-revenue-platform' },
    redact: {
      paths: ['password', 'token', 'secret', 'authorization', 'cookie', '*.password', '*.token', '*.secret', '*.authorization', '*.cookie'],
      censor: '[redacted]',
    },
  });
  return root;
}
