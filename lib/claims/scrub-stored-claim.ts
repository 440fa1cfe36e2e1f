// Scrubs a claim as it would be sent now: the ProfessionalClaim from the claim, the clinic and the coverage on file,
// plus the two facts only the database knows (DECISIONS "Claims out", issue #13): an active eligibility check of
// the coverage on file from the last 24 hours, and an earlier claim already submitted for the same patient, date
// of service and lines. Used by the dry run (POST /api/claims/{id}/scrub) and by submit, so both say the same.
import type { Db } from '../db';
import { compareCoverage } from '../eligibility/coverage-on-file';
import { clinicToday } from '../time/clinic-day';
import type { ProfessionalClaim } from '../x12/professional-claim';
import {
  assembleProfessionalClaim,
  coverageOfRank,
  type ClaimRecord,
  type ClinicRecord,
  type PatientRecord,
} from './assemble-professional-claim';
import { scrubClaim, type ScrubIssue } from './scrub/scrub-claim';
import { loadSecondPassFacts } from './second-pass-facts';

const ELIGIBILITY_WINDOW_MS = 24 * 60 * 60 * 1000;
// Statuses of a claim that went to the payer: a second claim like it is a duplicate. A draft, a rejected claim
// (the payer never took it) and a closed one do not count.
const SENT_STATUSES = ['sending', 'submitted', 'accepted', 'paid', 'partially_paid', 'denied', 'appealed'];

export type ScrubbedClaim = { professionalClaim: ProfessionalClaim; issues: ScrubIssue[] };

export async function scrubStoredClaim(
  db: Db,
  input: {
    clinicId: string;
    patientId: string;
    claim: ClaimRecord & { replacesClaimId?: string | null; primaryClaimId?: string | null };
    clinic: ClinicRecord & { timeZone: string };
    patient: PatientRecord;
    now: Date;
  },
): Promise<ScrubbedClaim> {
  const { clinicId, patientId, claim, clinic, patient, now } = input;
  const facts = await loadSecondPassFacts(db, clinicId, claim);
  const professionalClaim = assembleProfessionalClaim(claim, clinic, patient, facts);
  const [hasMatchingActiveCheck, duplicateOf] = await Promise.all([
    // A secondary claim needs a check of the secondary coverage, the one it is sent to.
    hasActiveCheckOfCoverage(db, { clinicId, patientId, patient: coverageOfRank(patient, claim.payerRank), now }),
    findDuplicateClaim(db, { clinicId, patientId, claim }),
  ]);
  const issues = scrubClaim({
    claim: professionalClaim,
    today: clinicToday(now, clinic.timeZone),
    hasMatchingActiveCheck,
    duplicateOf,
  });
  return { professionalClaim, issues };
}

/**
 * An active check from the last 24 h whose member id and payer equal the coverage on file NOW (DECISIONS "Verify is
 * tied to the patient"): a check of another member id, or one made before the coverage changed, does not count.
 */
export async function hasActiveCheckOfCoverage(
  db: Db,
  input: { clinicId: string; patientId: string; patient: PatientRecord; now: Date },
): Promise<boolean> {
  const since = new Date(input.now.getTime() - ELIGIBILITY_WINDOW_MS);
  // Distinct pairs: a day of re-checks of one patient is a handful of rows, compared in code with the one
  // canonical form (SQL's upper() and ILIKE would each compare differently).
  const checks = await db.eligibilityCheck.findMany({
    where: {
      clinicId: input.clinicId,
      patientId: input.patientId,
      status: 'active',
      eligible: true,
      createdAt: { gte: since },
      memberId: { not: null },
    },
    distinct: ['memberId', 'payerId'],
    select: { memberId: true, payerId: true },
  });
  const coverage = { memberId: input.patient.coverageMemberId, payerId: input.patient.coveragePayerId };
  return checks.some(
    (check) => compareCoverage({ memberId: check.memberId!, payerId: check.payerId }, coverage) === 'match',
  );
}

/**
 * The id of a claim already sent to the same rank of payer for this patient and date of service with the same lines,
 * or null. A replacement or void repeats the lines of the claim it acts on, and a secondary those of its primary, by
 * design: that claim is not a duplicate of it.
 */
export async function findDuplicateClaim(
  db: Db,
  input: {
    clinicId: string;
    patientId: string;
    claim: ClaimRecord & { replacesClaimId?: string | null; primaryClaimId?: string | null };
  },
): Promise<string | null> {
  const { claim } = input;
  const related = [claim.id, claim.replacesClaimId, claim.primaryClaimId].filter((id): id is string => !!id);
  const candidates = await db.claim.findMany({
    where: {
      clinicId: input.clinicId,
      patientId: input.patientId,
      serviceDate: claim.serviceDate,
      status: { in: SENT_STATUSES },
      id: { notIn: related },
      payerRank: claim.payerRank ?? 'primary',
    },
    select: { id: true, serviceDate: true, lines: true },
    orderBy: { createdAt: 'asc' },
    take: 50,
  });
  const mine = lineSignature(claim);
  return candidates.find((candidate) => lineSignature(candidate) === mine)?.id ?? null;
}

/** The lines as a payer compares them: code, modifiers, units, charge and date, in any order. */
function lineSignature(claim: Pick<ClaimRecord, 'serviceDate' | 'lines'>): string {
  return claim.lines
    .map((line) =>
      [
        line.procedureCode,
        line.modifiers.join(','),
        line.units,
        line.chargeCents,
        line.serviceDate ?? claim.serviceDate,
      ].join('|'),
    )
    .sort()
    .join('\n');
}
