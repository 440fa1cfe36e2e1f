// The eligibility result as the API sends it (SPEC "Eligibility result" plus DECISIONS' status, rejection,
// cached, payerId, evidence): one zod schema for verify, the roster's result object and the OpenAPI document.
// Amounts are integer cents, coinsurance an integer percent. How a 271 fills these fields is lib/x12's job.
import { z } from 'zod';
import { COVERAGE_ON_FILE } from './coverage-on-file';

const Cents = z.int().nullable();
const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const Amounts = z.object({ individual: Cents, met: Cents, remaining: Cents });

/**
 * Why the answer is `unknown`. From a payer AAA: `reasonCode` is AAA03, `followUpCode` AAA04, `loop` the
 * 2100 loop it sat in. When there is no readable 271 at all, `loop` is null and `reasonCode` is one of
 * `TA1`, `999`, `UNREADABLE`, `TRACE_MISMATCH` (roster also `TRANSPORT_FAILED`, `INTERNAL_ERROR`); these are
 * never cached. `reason` and `followUp` are worded for front-desk staff.
 */
export const Rejection = z.object({
  reasonCode: z.string(),
  reason: z.string(),
  followUpCode: z.string().nullable(),
  followUp: z.string().nullable(),
  loop: z.enum(['2100A', '2100B', '2100C', '2100D']).nullable(),
});
export type Rejection = z.infer<typeof Rejection>;

export const EligibilityStatus = z.enum(['active', 'inactive', 'unknown']);
export type EligibilityStatus = z.infer<typeof EligibilityStatus>;

/** The parsed 271: what both routes send for one member (roster results carry exactly this). */
export const EligibilityFields = z.object({
  mode: z.enum(['live', 'sandbox']),
  status: EligibilityStatus,
  eligible: z.boolean(),
  rejection: Rejection.nullable(),
  cached: z.boolean(),
  payerId: z.string(),
  memberId: z.string(),
  /**
   * The member id and payer asked about against the patient's coverage on file, computed when the answer is sent
   * (a cached answer is compared with the coverage on file now): match, mismatch, or none on file. Only an
   * active check that matches the current coverage on file satisfies the claims precondition.
   */
  coverageOnFile: z.enum(COVERAGE_ON_FILE),
  memberName: z.string().nullable(),
  planName: z.string().nullable(),
  groupNumber: z.string().nullable(),
  deductible: Amounts,
  outOfPocket: Amounts,
  copay: z.object({ specialist: Cents, primaryCare: Cents }),
  coinsurance: z.int().nullable(),
  coverageStart: IsoDate.nullable(),
  coverageEnd: IsoDate.nullable(),
  priorAuthRequired: z.boolean(),
  priorAuthCodes: z.array(z.string()),
  network: z.enum(['IN', 'OUT', 'UNKNOWN']),
  verifiedAt: z.iso.datetime(),
});
export type EligibilityFields = z.infer<typeof EligibilityFields>;

/** The verify response: the fields plus, when the request set `explain`, the segments behind each value. */
export const EligibilityResult = EligibilityFields.extend({
  evidence: z.record(z.string(), z.array(z.string())).optional(),
});
export type EligibilityResult = z.infer<typeof EligibilityResult>;
