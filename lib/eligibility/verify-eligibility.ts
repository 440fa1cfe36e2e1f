// POST /api/eligibility/verify's domain: one patient, one payer, in real time. Owns the order of the checks
// (payer known, patient in the caller's clinic, PHI access logged; the route has asked for the transport with
// requirePayer before any of them) and the response
// shape, which says whether the member id and payer asked about are the patient's coverage on file. The body
// schema is verify-eligibility-body.ts's; the 270/271 exchange and the cache are check-eligibility.ts's.
import { AppError } from '../errors';
import { clinicToday } from '../time/clinic-day';
import {
  checkEligibility,
  eligibilityCacheKey,
  type EligibilityDeps,
  type EligibilityInquiry,
} from './check-eligibility';
import { loggedCheckStore } from './eligibility-check-store';
import type { EligibilityResult } from './eligibility-result';
import { findPayerByName } from './payer-directory';
import type { VerifyEligibilityBody } from './verify-eligibility-body';

export type VerifyContext = {
  clinicId: string;
  orgId: string;
  userId: string;
  correlationId: string;
  /** The clinic's zone: the default date of service is the clinic's today. */
  clinicTimeZone: string;
};

/**
 * Verifies one member with `deps.payer` (the route's requirePayer refuses production without CORE before this
 * runs). Refuses before any work: VALIDATION_FAILED for a payerName the directory does not know (without payerId),
 * OUT_OF_SCOPE when the patient is not this clinic's (or does not exist). Then logs the PHI access and checks.
 * Throws TRANSPORT_FAILED when the payer cannot be reached.
 */
export async function verifyEligibility(
  deps: EligibilityDeps,
  context: VerifyContext,
  body: VerifyEligibilityBody,
): Promise<EligibilityResult> {
  const payerId = body.payerId ?? findPayerByName(body.payerName)?.payerId;
  if (!payerId) {
    throw new AppError('VALIDATION_FAILED', 'The payer is not in the payer directory; send its payerId', {
      issues: [
        { path: 'body.payerName', message: 'Unknown payer name; send payerId for a payer the directory does not list' },
      ],
    });
  }
  // Only a 270 needs the provider's name, and a cache hit sends none: look the clinic up on a miss only.
  const providerName = async () => {
    const clinic = await deps.db.clinic.findUnique({
      where: { id: context.clinicId },
      select: { name: true, billingNpi: true, billingProviderName: true },
    });
    return (clinic?.billingNpi === body.npi ? clinic.billingProviderName : null) ?? clinic?.name ?? 'PROVIDER';
  };
  // The clinic's today (its zone came with the session check, so a cache hit costs no extra query).
  const dateOfService = body.dos ?? clinicToday(deps.clock(), context.clinicTimeZone);
  const question: Omit<EligibilityInquiry, 'coverage'> = {
    clinicId: context.clinicId,
    userId: context.userId,
    patientId: body.patientId,
    correlationId: context.correlationId,
    payer: { id: payerId, name: body.payerName },
    provider: { npi: body.npi, name: providerName },
    subscriber: { memberId: body.memberId, firstName: body.firstName, lastName: body.lastName, birthDate: body.dob },
    serviceTypeCodes: [body.serviceType],
    dateOfService,
  };
  // Scopes the patient, logs the PHI access, reads the cache and the coverage on file in one statement:
  // OUT_OF_SCOPE for another clinic's patient (or none), with nothing logged and nothing sent.
  const store = await loggedCheckStore(
    deps.db,
    { ...context, purpose: 'eligibility.verify' },
    {
      cacheKey: eligibilityCacheKey(question),
      clinicId: context.clinicId,
      patientId: body.patientId,
      mode: deps.payer.mode,
      now: deps.clock(),
    },
  );
  const { fields, evidence } = await checkEligibility(deps, { ...question, coverage: store.coverage }, store);
  return body.explain ? { ...fields, evidence } : fields;
}
