// "Bill this visit": the claim editor's starting fields from one of the clinic's appointments: its patient (name and
// date of birth, which billing cannot read elsewhere without patients:read), the date of service as the
// appointment's date at the clinic (DECISIONS "Staff app"), place of service 11 (office: an appointment does not
// record another place) and the rendering provider's NPI when the appointment names one.
import type { Db } from '../db';
import { patientName } from '../patients/patient-names';
import { clinicDateOf } from '../time/clinic-day';

export type ClaimPrefillFromVisit = {
  appointmentId: string;
  patient: { patientId: string; name: string; birthDate: string };
  serviceDate: string;
  placeOfService: string;
  renderingNpi?: string;
};

/** The fields for a new claim of the appointment, or null when the clinic has no such appointment. */
export async function claimPrefillFromAppointment(
  db: Db,
  input: { clinicId: string; timeZone: string; appointmentId: string },
): Promise<ClaimPrefillFromVisit | null> {
  const appointment = await db.appointment.findFirst({
    where: { id: input.appointmentId, clinicId: input.clinicId },
    select: {
      id: true,
      start: true,
      providerNpi: true,
      patient: { select: { id: true, clinicId: true, firstName: true, lastName: true, birthDate: true } },
    },
  });
  if (!appointment || appointment.patient.clinicId !== input.clinicId) return null;
  const { patient } = appointment;
  return {
    appointmentId: appointment.id,
    patient: {
      patientId: patient.id,
      name: patientName(patient),
      birthDate: patient.birthDate,
    },
    serviceDate: clinicDateOf(appointment.start, input.timeZone),
    placeOfService: '11',
    ...(appointment.providerNpi ? { renderingNpi: appointment.providerNpi } : {}),
  };
}
