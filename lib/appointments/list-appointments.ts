// A clinic's appointments of one day (UTC), with what the roster needs: patient name, member id and payer.
import { z } from 'zod';
import type { Db } from '../db';

export const ListAppointmentsQuery = z.object({
  date: z.iso.date({ message: 'date must be YYYY-MM-DD' }),
});

export const AppointmentListItem = z.object({
  id: z.string(),
  patientId: z.string(),
  patientName: z.string(),
  start: z.string(),
  memberId: z.string().nullable(),
  payerId: z.string().nullable(),
  payerName: z.string().nullable(),
  providerNpi: z.string().nullable(),
  reason: z.string().nullable(),
});
export const AppointmentList = z.object({ date: z.string(), appointments: z.array(AppointmentListItem) });

export async function listAppointments(
  deps: { db: Db },
  input: { clinicId: string; date: string },
): Promise<z.infer<typeof AppointmentList>> {
  const from = new Date(`${input.date}T00:00:00.000Z`);
  const to = new Date(from.getTime() + 24 * 60 * 60 * 1000);
  const rows = await deps.db.appointment.findMany({
    where: { clinicId: input.clinicId, start: { gte: from, lt: to } },
    include: { patient: true },
    orderBy: [{ start: 'asc' }, { id: 'asc' }],
    take: 1000,
  });
  return {
    date: input.date,
    appointments: rows.map((a) => ({
      id: a.id,
      patientId: a.patientId,
      patientName: `${a.patient.firstName} ${a.patient.lastName}`,
      start: a.start.toISOString(),
      memberId: a.patient.coverageMemberId,
      payerId: a.patient.coveragePayerId,
      payerName: a.patient.coveragePayerName,
      providerNpi: a.providerNpi,
      reason: a.reason,
    })),
  };
}
