// Which cron occurrence a schedule's job stands for. pg-boss gives a job its schedule's data and nothing else, a
// job it sends to catch up an occurrence missed while no instance ran (`missed: 'once'`) included, so the occurrence
// is read back from the cron: the latest at or before the moment the job runs, in the schedule's zone.
import type { PgBoss } from 'pg-boss';

/**
 * How far ahead of this instance's clock an occurrence still counts as come: pg-boss's cron pass reads the
 * database's clock and sends an occurrence within its 60-second due window, so an instance whose clock is a few
 * seconds behind can run the job "before" its occurrence.
 */
const CLOCK_SKEW_ALLOWANCE_MS = 60_000;
/** Windows looked back through, shortest first (the registry's crons recur at least daily). */
const LOOKBACK_MS = [3_600_000, 26 * 3_600_000, 8 * 86_400_000, 32 * 86_400_000];
const PAGE = 100;

/** The latest occurrence of `cron` in `timeZone` at or before `at` (a minute's allowance); null when none in 32 days. */
export function latestOccurrence(boss: PgBoss, cron: string, timeZone: string, at: Date): Date | null {
  const until = at.getTime() + CLOCK_SKEW_ALLOWANCE_MS;
  for (const lookbackMs of LOOKBACK_MS) {
    let from = new Date(until - lookbackMs);
    let latest: Date | null = null;
    for (;;) {
      // Occurrences strictly after `from`, in order.
      const page = boss.previewSchedule(cron, { tz: timeZone, from, count: PAGE });
      const due = page.filter((occurrence) => occurrence.getTime() <= until);
      latest = due.at(-1) ?? latest;
      if (due.length < page.length || page.length < PAGE) break;
      from = page.at(-1)!;
    }
    if (latest) return latest;
  }
  return null;
}
