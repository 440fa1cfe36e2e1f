// Structured JSON logs (pino). Every request logs through a child carrying its correlation id. Never log PHI,
// raw X12, tokens or secrets: the redact list is a backstop, not permission. The composition root (lib/deps.ts)
// builds the one root logger per process from config.
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'clinic-revenue-platform' },
    redact: {
      paths: [
        'password',
        'token',
        'secret',
        'authorization',
        'cookie',
        '*.password',
        '*.token',
        '*.secret',
        '*.authorization',
        '*.cookie',
      ],
      censor: '[redacted]',
    },
  });
}
