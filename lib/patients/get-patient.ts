// GET /api/patients/{id}'s domain: one patient of the caller's clinic with what the front desk needs on one
// page: demographics, coverage on file, the eligibility checks already stored (newest first) and appointments.
// The PHI access log is written first and is the scope check: a patient of another clinic, or none, is 403
// OUT_OF_SCOPE with nothing logged (no existence oracle, as for eligibility and claims).
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { recordPhiAccess } from '../audit/record-phi-access';
import { EligibilityStatus } from '../eligibility/eligibility-result';
import type { PatientReader } from './list-patients';
import { PATIENT_SUMMARY_SELECT, PatientAddress, PatientSummary, addressOf, patientSummary } from './patient-view';

const RECENT_CHECKS = 20;
const APPOINTMENTS = 50;

export const EligibilityCheckSummary = z.object({
  id: z.string(),
  checkedAt: z.iso.datetime(),
  status: EligibilityStatus,
  eligible: z.boolean(),
  mode: z.string(),
  payerId: z.string(),
  memberId: z.string().nullable(),
  serviceType: z.string(),
  dateOfService: z.string(),
  /** Whether the member id and payer checked were the coverage on file at the time (match, mismatch, none). */
  coverageOnFile: z.string().nullable(),
  network: z.enum(['IN', 'OUT', 'UNKNOWN']).nullable(),
  planName: z.string().nullable(),
  priorAuthRequired: z.boolean(),
  /** Why the payer's answer was unknown, in words, when it rejected the question. */
  rejectionReason: z.string().nullable(),
});

export const PatientAppointment = z.object({
  id: z.string(),
  start: z.iso.datetime(),
  providerName: z.string().nullable(),
  reason: z.string().nullable(),
});

export const PatientDetail = PatientSummary.extend({
  phone: z.string().nullable(),
  address: PatientAddress.nullable(),
  /** The subscriber as the card names them, when the patient is not the subscriber. */
  subscriber: z.object({ firstName: z.string(), lastName: z.string(), birthDate: z.string().nullable() }).nullable(),
  eligibilityChecks: z.array(EligibilityCheckSummary),
  appointments: z.array(PatientAppointment),
});
export type PatientDetail = z.infer<typeof PatientDetail>;

export async function getPatient(
  deps: { db: Db; clock: Clock },
  reader: PatientReader,
  patientId: string,
): Promise<PatientDetail> {
  await recordPhiAccess(deps.db, { ...reader, purpose: 'patients.read' }, [patientId], deps.clock());
  const where = { clinicId: reader.clinicId, patientId };
  const [patient, checks, appointments] = await Promise.all([
    deps.db.patient.findFirstOrThrow({
      where: { id: patientId, clinicId: reader.clinicId },
      select: { ...PATIENT_SUMMARY_SELECT, phone: true, address: true, coverageSubscriber: true },
    }),
    deps.db.eligibilityCheck.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: RECENT_CHECKS,
    }),
    deps.db.appointment.findMany({
      where,
      orderBy: [{ start: 'desc' }, { id: 'asc' }],
      take: APPOINTMENTS,
    }),
  ]);
  return {
    ...patientSummary(patient),
    phone: patient.phone,
    address: addressOf(patient.address),
    subscriber: subscriberOf(patient.coverageSubscriber),
    eligibilityChecks: checks.map((check) => {
      const result = (check.result ?? {}) as Record<string, unknown>;
      const rejection = result.rejection as { reason?: unknown } | null | undefined;
      return {
        id: check.id,
        checkedAt: check.createdAt.toISOString(),
        status: EligibilityStatus.catch('unknown').parse(check.status),
        eligible: check.eligible,
        mode: check.mode,
        payerId: check.payerId,
        memberId: check.memberId,
        serviceType: check.serviceType,
        dateOfService: check.dateOfService,
        coverageOnFile: check.coverageOnFile,
        network: z
          .enum(['IN', 'OUT', 'UNKNOWN'])
          .nullable()
          .catch(null)
          .parse(result.network ?? null),
        planName: typeof result.planName === 'string' ? result.planName : null,
        priorAuthRequired: result.priorAuthRequired === true,
        rejectionReason: typeof rejection?.reason === 'string' ? rejection.reason : null,
      };
    }),
    appointments: appointments.map((a) => ({
      id: a.id,
      start: a.start.toISOString(),
      providerName: a.providerName,
      reason: a.reason,
    })),
  };
}

function subscriberOf(stored: unknown): PatientDetail['subscriber'] {
  if (!stored || typeof stored !== 'object') return null;
  const value = stored as Record<string, unknown>;
  if (typeof value.firstName !== 'string' || typeof value.lastName !== 'string') return null;
  return {
    firstName: value.firstName,
    lastName: value.lastName,
    birthDate: typeof value.birthDate === 'string' ? value.birthDate : null,
  };
}
