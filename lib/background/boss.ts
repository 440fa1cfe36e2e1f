// The job engine of this process: one pg-boss on the app's own database. On PostgreSQL it keeps its own small pool;
// on the embedded database it runs on the very PGlite instance Prisma uses (one process owns a PGlite folder, and
// PGlite serialises its callers, so a Prisma transaction and a pg-boss statement never interleave). Every role
// starts one, because every role sends jobs; only `all` and `worker` also supervise (expire, retry and
// dead-letter jobs whose worker died) and run the cron schedules (start-background-work.ts adds the workers).
import { PgBoss, fromPglite, type ConstructorOptions } from 'pg-boss';
import type { Config } from '../config';
import { findPglite, type Db } from '../db';
import { AppError } from '../errors';
import type { Logger } from '../log';

// One per process, shared by both bundles (instrumentation and the route handlers), like the database client.
const perProcess = globalThis as unknown as { __boss?: Promise<PgBoss> };

/** pg-boss's own PostgreSQL connections per instance, beside the app's pool (DATABASE_POOL_SIZE). */
const BOSS_POOL_SIZE = 3;

export type BossRole = { works: boolean };

/** Starts the process's job engine once (later calls return the same one); creating its schema on first use. */
export function startBoss(
  deps: { config: Pick<Config, 'database'>; db: Db; log: Logger },
  role: BossRole,
): Promise<PgBoss> {
  perProcess.__boss ??= openBoss(deps, role).catch((error: unknown) => {
    perProcess.__boss = undefined;
    throw error;
  });
  return perProcess.__boss;
}

/**
 * The process's started job engine, for code that sends jobs.
 * @throws AppError DEPENDENCY_UNAVAILABLE when start-up has not started it (it always does before serving).
 */
export function requireBoss(): Promise<PgBoss> {
  if (!perProcess.__boss) {
    throw new AppError('DEPENDENCY_UNAVAILABLE', 'Background work is not available', {
      cause: new Error('the job engine was not started'),
    });
  }
  return perProcess.__boss;
}

/** The constructor options for a database and role. */
function bossOptions(database: Config['database'], db: Db, role: BossRole): ConstructorOptions {
  const common: ConstructorOptions = {
    // Workers supervise: a job whose heartbeat stops (its instance was killed) is retried within ~15 s.
    supervise: role.works,
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
    schedule: role.works,
    cronMonitorIntervalSeconds: 15,
    instanceName: role.works ? 'worker' : 'web',
  };
  if (database.kind === 'postgres') {
    return {
      ...common,
      connectionString: database.url,
      max: BOSS_POOL_SIZE,
      application_name: `svc-jobs:${process.pid}`,
    };
  }
  const pglite = findPglite(db);
  if (!pglite) throw new Error('the embedded database client has no PGlite instance to share');
  return { ...common, db: fromPglite(pglite), backend: 'pglite' };
}

async function openBoss(
  { config, db, log }: { config: Pick<Config, 'database'>; db: Db; log: Logger },
  role: BossRole,
): Promise<PgBoss> {
  const boss = new PgBoss(bossOptions(config.database, db, role));
  // An EventEmitter's unhandled 'error' would end the process: a database blip is logged, and pg-boss retries.
  boss.on('error', (error) => log.error({ err: error.message }, 'job engine error'));
  boss.on('warning', (warning) => log.warn({ warning: warning.message }, 'job engine warning'));
  // Several instances may start together on a database pg-boss has not installed yet: the loser retries.
  await boss.start({ attempts: 5 });
  return boss;
}
