// Liveness and readiness in one: the mode and whether the database answers. 503 when it does not.
import { z } from 'zod';
import type { Deps } from '../deps';
import { AppError } from '../errors';

export const Health = z.object({
  status: z.literal('ok'),
  mode: z.enum(['sandbox', 'production']),
  database: z.literal('ok'),
});

export async function checkHealth(deps: Pick<Deps, 'db' | 'config'>): Promise<z.infer<typeof Health>> {
  try {
    await deps.db.$queryRaw`SELECT 1`;
  } catch (cause) {
    throw new AppError('DEPENDENCY_UNAVAILABLE', 'The database is unavailable', { cause });
  }
  return { status: 'ok', mode: deps.config.mode, database: 'ok' };
}
