// A pg-boss instance on a test's own database, for code that talks to the job tables directly (no app process):
// no supervision and no schedule timers, so a test decides when anything runs. Test-only.
import { PgBoss } from 'pg-boss';

/** Started, with each queue created with its options. Stop it in afterAll. */
export async function startTestBoss(
  connectionString: string,
  queues: Record<string, Parameters<PgBoss['createQueue']>[1]>,
): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString, max: 2, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  for (const [name, options] of Object.entries(queues)) await boss.createQueue(name, options);
  return boss;
}
