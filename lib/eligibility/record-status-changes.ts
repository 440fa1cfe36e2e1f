// The evening pre-verification's events (DECISIONS "Events out"): eligibility.status_changed for each patient
// whose newest check's status differs from the check before it. The roster's checks are written by its batch
// store, not in one transaction with anything of ours, so this runs once the run's rows are recorded, one event
// per check (its id derives from the check's): a retried job records none twice, and a job that died before
// this point is retried by pg-boss and records them then.
import type { Db } from '../db';
import { recordEvent } from '../events/record-event';
import type { RosterResult } from './check-roster';

export async function recordStatusChanges(
  db: Db,
  input: { clinicId: string; date: string; correlationId: string; now: Date; results: readonly RosterResult[] },
): Promise<number> {
  let recorded = 0;
  const patientIds = new Set(input.results.filter((r) => r.changedSinceLastCheck).map((r) => r.appointment.patientId));
  for (const patientId of patientIds) {
    const [newest, before] = await db.eligibilityCheck.findMany({
      where: { clinicId: input.clinicId, patientId },
      orderBy: { createdAt: 'desc' },
      take: 2,
      select: { id: true, status: true },
    });
    if (!newest || !before || newest.status === before.status) continue;
    const { duplicate } = await db.$transaction((tx) =>
      recordEvent(tx, {
        id: `evt_elig_${newest.id}`,
        clinicId: input.clinicId,
        type: 'eligibility.status_changed',
        objectId: patientId,
        data: { patientId, checkId: newest.id, date: input.date, previousStatus: before.status, status: newest.status },
        correlationId: input.correlationId,
        at: input.now,
      }),
    );
    if (!duplicate) recorded += 1;
  }
  return recorded;
}
