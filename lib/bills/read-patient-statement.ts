// What a patient statement says (DECISIONS "Claim lifecycle"): the clinic (name, address, phone), the patient (name,
// address), each visit on the bill with what was charged, what insurance paid and adjusted and the patient's share,
// the total due, the due date (30 days after the statement date, in the clinic's calendar) and how to pay. A bill a
// remittance raised names its claim: that claim is the visit. A bill without a claim is a visit billed directly.
import type { Db } from '../db';
import { AppError } from '../errors';
import { centsToNumber } from '../money/cents-to-number';
import { patientName } from '../patients/patient-names';
import { addressOf } from '../patients/patient-view';
import { clinicDateOf, clinicToday } from '../time/clinic-day';

export type StatementAddress = { lines: string[] };

export type StatementVisit = {
  /** YYYY-MM-DD. */
  serviceDate: string;
  /** Each service line as billed: the CPT/HCPCS code with its modifiers, and its units ("99213-25 x1"). */
  services: string[];
  chargeCents: number;
  insurancePaidCents: number;
  insuranceAdjustedCents: number;
  patientShareCents: number;
};

export type PatientStatement = {
  billId: string;
  /** YYYY-MM-DD, the clinic's today. */
  statementDate: string;
  dueDate: string;
  clinic: { name: string; address: StatementAddress | null; phone: string | null };
  /** patientId is null only when the clinic no longer has the patient's record. */
  patient: { patientId: string | null; name: string; address: StatementAddress | null };
  visits: StatementVisit[];
  /** What the patient has paid on this bill so far. */
  paidCents: number;
  totalDueCents: number;
};

const DUE_DAYS = 30;

function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

function postalLines(stored: unknown): StatementAddress | null {
  const address = addressOf(stored);
  if (!address) return null;
  const cityLine = [address.city, [address.state, formatZip(address.postalCode)].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const lines = [...address.line, cityLine].filter((line) => line.trim() !== '');
  return lines.length ? { lines } : null;
}

function formatZip(zip: string | null): string | null {
  return zip && /^\d{9}$/.test(zip) ? `${zip.slice(0, 5)}-${zip.slice(5)}` : zip;
}

/** @throws NOT_FOUND (404) unless the bill belongs to `clinicId`. */
export async function readPatientStatement(
  deps: { db: Db; clock: () => Date },
  input: { clinicId: string; billId: string; clinicTimeZone: string },
): Promise<PatientStatement> {
  const { db } = deps;
  const { clinicId } = input;
  const bill = await db.patientBill.findFirst({ where: { id: input.billId, clinicId } });
  if (!bill) throw new AppError('NOT_FOUND', 'No such bill');
  const [clinic, patient, claim] = await Promise.all([
    db.clinic.findUniqueOrThrow({ where: { id: clinicId }, select: { name: true, billingAddress: true, phone: true } }),
    db.patient.findFirst({
      where: { id: bill.patientId, clinicId },
      select: { firstName: true, lastName: true, address: true },
    }),
    bill.claimId
      ? db.claim.findFirst({
          where: { id: bill.claimId, clinicId },
          include: { lines: { orderBy: { position: 'asc' } } },
        })
      : null,
  ]);
  const statementDate = clinicToday(deps.clock(), input.clinicTimeZone);
  const visits: StatementVisit[] = claim
    ? [
        {
          serviceDate: claim.serviceDate,
          services: claim.lines.map((line) =>
            [line.procedureCode + (line.modifiers.length ? `-${line.modifiers.join('-')}` : ''), `x${line.units}`].join(
              ' ',
            ),
          ),
          chargeCents: centsToNumber(claim.totalChargeCents),
          insurancePaidCents: centsToNumber(claim.paidCents),
          insuranceAdjustedCents: centsToNumber(claim.adjustmentCents),
          patientShareCents: bill.amountCents,
        },
      ]
    : [
        {
          // The day it was billed in the clinic's calendar: an evening bill in New York is that day's, not the
          // next UTC day's.
          serviceDate: clinicDateOf(bill.createdAt, input.clinicTimeZone),
          services: ['Visit'],
          chargeCents: bill.amountCents,
          insurancePaidCents: 0,
          insuranceAdjustedCents: 0,
          patientShareCents: bill.amountCents,
        },
      ];
  return {
    billId: bill.id,
    statementDate,
    dueDate: addDays(statementDate, DUE_DAYS),
    clinic: { name: clinic.name, address: postalLines(clinic.billingAddress), phone: clinic.phone },
    patient: {
      patientId: patient ? bill.patientId : null,
      name: patient ? patientName(patient) : 'Patient',
      address: patient ? postalLines(patient.address) : null,
    },
    visits,
    paidCents: bill.paidCents,
    totalDueCents: Math.max(0, bill.amountCents - bill.paidCents),
  };
}
