// A clinic's appointments of one day, with what the roster needs: patient name, member id and payer. The day is
// the clinic's calendar day in its time zone (DECISIONS "Staff app"): from its midnight to the next, so an
// evening visit in Los Angeles is on the clinic's date, not UTC's. Without a date, the clinic's today. The list
// names patients, so each patient on it is in the PHI access log (purpose appointments.list) before it is returned.
import { z } from 'zod';
import { recordPhiAccess, type PhiAccess } from '../audit/record-phi-access';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { patientName } from '../patients/patient-names';
import { clinicDayBounds, clinicToday } from '../time/clinic-day';

export const ListAppointmentsQuery = z.object({
  date: z.iso.date({ message: 'date must be YYYY-MM-DD' }).optional(),
});

export const AppointmentListItem = z.object({
  id: z.string(),
  patientId: z.string(),
  patientName: z.string(),
  /** The instant (ISO-8601, UTC); screens show it in the clinic's time zone. */
  start: z.string(),
  memberId: z.string().nullable(),
  payerId: z.string().nullable(),
  payerName: z.string().nullable(),
  providerNpi: z.string().nullable(),
  reason: z.string().nullable(),
});
export type AppointmentListItem = z.infer<typeof AppointmentListItem>;
export const AppointmentList = z.object({
  /** The clinic's calendar day listed (the one asked for, else the clinic's today). */
  date: z.string(),
  /** The clinic's IANA time zone, in which `date` is counted. */
  timeZone: z.string(),
  appointments: z.array(AppointmentListItem),
});

export async function listAppointments(
  deps: { db: Db; clock: Clock },
  input: { reader: Omit<PhiAccess, 'purpose'>; clinicTimeZone: string; date?: string },
): Promise<z.infer<typeof AppointmentList>> {
  const { clinicId, orgId, userId, correlationId } = input.reader;
  const timeZone = input.clinicTimeZone;
  const now = deps.clock();
  const date = input.date ?? clinicToday(now, timeZone);
  const { from, to } = clinicDayBounds(date, timeZone);
  const rows = await deps.db.appointment.findMany({
    where: { clinicId, start: { gte: from, lt: to } },
    include: { patient: true },
    orderBy: [{ start: 'asc' }, { id: 'asc' }],
    take: 1000,
  });
  await recordPhiAccess(
    deps.db,
    { clinicId, orgId, userId, correlationId, purpose: 'appointments.list' },
    rows.map((a) => a.patientId),
    now,
  );
  return {
    date,
    timeZone,
    appointments: rows.map((a) => ({
      id: a.id,
      patientId: a.patientId,
      patientName: patientName(a.patient),
      start: a.start.toISOString(),
      memberId: a.patient.coverageMemberId,
      payerId: a.patient.coveragePayerId,
      payerName: a.patient.coveragePayerName,
      providerNpi: a.providerNpi,
      reason: a.reason,
    })),
  };
}
