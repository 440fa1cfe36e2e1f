// How a patient reads in the API (GET /api/patients and GET /api/patients/{id}): demographics and the coverage
// on file, shaped by these schemas so no stored column leaks by accident (a patient is PHI).
import { z } from 'zod';

/** FHIR's Address words, as the EMR bridge and the demo store them; unknown keys are dropped. */
export const PatientAddress = z.object({
  line: z.array(z.string()),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
});
export type PatientAddress = z.infer<typeof PatientAddress>;

export const CoverageOnFile = z.object({
  payerId: z.string(),
  payerName: z.string().nullable(),
  memberId: z.string(),
  groupNumber: z.string().nullable(),
  /** X12 INS02: 18 self, 01 spouse, 19 child, G8 other. */
  relationship: z.string(),
});

export const PatientSummary = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** YYYY-MM-DD. */
  birthDate: z.string(),
  gender: z.string().nullable(),
  /** Null for a self-pay patient (no member id or payer on file). */
  coverage: CoverageOnFile.nullable(),
  /** The secondary coverage on file (DECISIONS "Claim lifecycle"); null when none. */
  secondaryCoverage: CoverageOnFile.nullable(),
});
export type PatientSummary = z.infer<typeof PatientSummary>;

type PatientRow = {
  id: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  gender: string | null;
  coverageMemberId: string | null;
  coveragePayerId: string | null;
  coveragePayerName: string | null;
  coverageGroupNumber: string | null;
  coverageRelationship: string;
  secondaryMemberId: string | null;
  secondaryPayerId: string | null;
  secondaryPayerName: string | null;
  secondaryGroupNumber: string | null;
  secondaryRelationship: string;
};

export const PATIENT_SUMMARY_SELECT = {
  id: true,
  firstName: true,
  lastName: true,
  birthDate: true,
  gender: true,
  coverageMemberId: true,
  coveragePayerId: true,
  coveragePayerName: true,
  coverageGroupNumber: true,
  coverageRelationship: true,
  secondaryMemberId: true,
  secondaryPayerId: true,
  secondaryPayerName: true,
  secondaryGroupNumber: true,
  secondaryRelationship: true,
} as const;

export function patientSummary(row: PatientRow): PatientSummary {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    birthDate: row.birthDate,
    gender: row.gender,
    coverage:
      row.coverageMemberId && row.coveragePayerId
        ? {
            payerId: row.coveragePayerId,
            payerName: row.coveragePayerName,
            memberId: row.coverageMemberId,
            groupNumber: row.coverageGroupNumber,
            relationship: row.coverageRelationship,
          }
        : null,
    secondaryCoverage:
      row.secondaryMemberId && row.secondaryPayerId
        ? {
            payerId: row.secondaryPayerId,
            payerName: row.secondaryPayerName,
            memberId: row.secondaryMemberId,
            groupNumber: row.secondaryGroupNumber,
            relationship: row.secondaryRelationship,
          }
        : null,
  };
}

/** A stored address (JSON) in the API's words; anything unreadable is null rather than an error. */
export function addressOf(stored: unknown): PatientAddress | null {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return null;
  const value = stored as Record<string, unknown>;
  const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : null);
  const line = Array.isArray(value.line)
    ? value.line.filter((l): l is string => typeof l === 'string')
    : [text('line1'), text('line2')].filter((l): l is string => l !== null);
  return { line, city: text('city'), state: text('state'), postalCode: text('postalCode') };
}
