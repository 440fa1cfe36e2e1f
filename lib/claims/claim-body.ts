// The claim's body as DECISIONS "Claims out" fixes it, for POST /api/claims (a draft), PATCH /api/claims/{id} and
// inline-create on POST /api/claims/submit: one set of rules for all three (DECISIONS "Security findings of
// 2026-11-28"), so a draft never holds what submit would refuse. The body rules: units > 0; charges > 0 and at
// most MAX_CLAIM_AMOUNT_CENTS, as is the claim's total; 1 to 50 lines; 1 to 12 diagnoses; 1 to 4 pointers per
// line, each into the diagnoses; no X12 delimiter in any code. What makes a claim payable beyond its body (code
// shapes, dates, coverage, eligibility) stays the scrubber's, which checks the caps and the rules again on submit.
import { z } from 'zod';
import type { ErrorIssue } from '../errors';
import { parseDollarsToCents } from '../money/dollars';

export const ClaimId = z.string().trim().min(1).max(200);
export const ClaimParams = z.object({ id: ClaimId });

export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, 'idempotencyKey must be 1-200 printable ASCII characters');

/**
 * The largest line charge and the largest claim total: 99,999,999 cents ($999,999.99), DECISIONS "Security
 * findings of 2026-11-28". Below the platform-wide MAX_AMOUNT_CENTS, so a claim's sums (and the 835s that echo
 * them) stay far inside what every reader accepts.
 */
export const MAX_CLAIM_AMOUNT_CENTS = 99_999_999;
export const MAX_CLAIM_LINES = 50;
export const MAX_DIAGNOSES = 12;
const MAX_UNITS = 99_999;
// The 837P's element, segment, component and repetition separators, and line breaks (lib/x12/build-837p).
const X12_RESERVED = /[*~:^\r\n]/;
// Half of a UTF-16 pair without its other half: no valid text holds one, and PostgreSQL cannot store it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const DateText = (field: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be YYYY-MM-DD`);
const Code = (what: string) =>
  z
    .string()
    .trim()
    .max(20)
    .refine((code) => !X12_RESERVED.test(code), `${what} cannot contain * ~ : ^ or a line break`)
    .refine((code) => !LONE_SURROGATE.test(code), `${what} is not valid text`);

export const ClaimLineBody = z.object({
  /** CPT or HCPCS Level II. */
  procedureCode: Code('procedureCode'),
  /** Up to 4 two-character modifiers (the scrubber checks their shape). */
  modifiers: z.array(Code('A modifier')).max(4, 'A line takes at most 4 modifiers').default([]),
  /** 1 to 4 one-based positions in `diagnoses`. */
  diagnosisPointers: z
    .array(z.number().int().min(1, 'A diagnosis pointer starts at 1').max(MAX_DIAGNOSES))
    .min(1, 'A line needs 1 to 4 diagnosis pointers')
    .max(4, 'A line needs 1 to 4 diagnosis pointers'),
  units: z.number().int().min(1, 'units must be more than zero').max(MAX_UNITS),
  chargeCents: z
    .number()
    .int()
    .min(1, 'chargeCents must be more than zero')
    .max(MAX_CLAIM_AMOUNT_CENTS, `chargeCents must be at most ${MAX_CLAIM_AMOUNT_CENTS} cents ($999,999.99)`),
  /** YYYY-MM-DD; defaults to the claim's serviceDate. */
  serviceDate: DateText('serviceDate').optional(),
});
export type ClaimLineBody = z.infer<typeof ClaimLineBody>;

/** Dollars, as a JSON number (125.5) or the same text ("125.50"); at most two decimals (DECISIONS "Money"). */
const Dollars = z.union([z.number(), z.string()]).superRefine((value, ctx) => {
  const cents = dollarsToCents(value);
  if (cents === undefined)
    ctx.addIssue({
      code: 'custom',
      message: 'totalCharge must be a non-negative dollar amount with at most 2 decimal places',
    });
  else if (cents === 0) ctx.addIssue({ code: 'custom', message: 'totalCharge must be more than zero' });
  else if (cents > MAX_CLAIM_AMOUNT_CENTS)
    ctx.addIssue({ code: 'custom', message: 'totalCharge must be at most 999999.99 dollars' });
});

const Diagnoses = z
  .array(Code('A diagnosis'))
  .min(1, 'A claim needs 1 to 12 diagnoses')
  .max(MAX_DIAGNOSES, 'A claim needs 1 to 12 diagnoses');
const Lines = z
  .array(ClaimLineBody)
  .min(1, 'A claim needs 1 to 50 service lines')
  .max(MAX_CLAIM_LINES, 'A claim needs 1 to 50 service lines');

const claimFields = {
  serviceDate: DateText('serviceDate'),
  /** CMS place-of-service code; default "11" (office). */
  placeOfService: z.string().trim().max(10).optional(),
  /** 1 to 12 ICD-10-CM codes, with or without the dot; the first is the principal diagnosis. */
  diagnoses: Diagnoses,
  lines: Lines,
  /** Defaults to the clinic's billing provider. */
  renderingNpi: z.string().trim().max(20).optional(),
  totalCharge: Dollars.optional(),
};

/**
 * The rules that tie a claim's parts together: each pointer names one of the diagnoses, and the lines' sum stays
 * within the cap. Used by the schemas below and by an edit (on the draft as it will be after the edit).
 */
export function findClaimBodyIssues(claim: {
  diagnoses: readonly string[];
  lines: readonly Pick<ClaimLineBody, 'diagnosisPointers' | 'chargeCents'>[];
}): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  claim.lines.forEach((line, i) =>
    line.diagnosisPointers.forEach((pointer, j) => {
      if (pointer > claim.diagnoses.length)
        issues.push({
          path: `lines.${i}.diagnosisPointers.${j}`,
          message: `A diagnosis pointer must name one of the claim's ${claim.diagnoses.length} diagnoses`,
        });
    }),
  );
  const sum = claim.lines.reduce((total, line) => total + line.chargeCents, 0);
  if (sum > MAX_CLAIM_AMOUNT_CENTS)
    issues.push({
      path: 'lines',
      message: `The lines' charges add up to more than ${MAX_CLAIM_AMOUNT_CENTS} cents ($999,999.99), a claim's limit`,
    });
  return issues;
}

function addClaimBodyIssues(
  claim: { diagnoses?: readonly string[]; lines?: readonly ClaimLineBody[] },
  ctx: z.RefinementCtx,
): void {
  if (claim.diagnoses === undefined || claim.lines === undefined) return;
  for (const issue of findClaimBodyIssues({ diagnoses: claim.diagnoses, lines: claim.lines }))
    ctx.addIssue({ code: 'custom', path: issue.path.split('.').map(pathPart), message: issue.message });
}

const pathPart = (part: string) => (/^\d+$/.test(part) ? Number(part) : part);

/** POST /api/claims: a draft. `totalCharge`, when given, is kept and the scrubber checks it against the lines. */
export const CreateClaimBody = z.object({ patientId: ClaimId, ...claimFields }).superRefine(addClaimBodyIssues);
export type CreateClaimBody = z.infer<typeof CreateClaimBody>;

/**
 * PATCH /api/claims/{id}: the same fields, each optional; the patient does not change. Pointers given without the
 * diagnoses (or diagnoses without the lines) are checked against the stored draft by updateClaim.
 */
export const PatchClaimBody = z
  .object({
    serviceDate: claimFields.serviceDate.optional(),
    placeOfService: claimFields.placeOfService,
    diagnoses: Diagnoses.optional(),
    lines: Lines.optional(),
    renderingNpi: z.string().trim().max(20).nullable().optional(),
    totalCharge: Dollars.nullable().optional(),
  })
  .strict()
  .superRefine(addClaimBodyIssues);
export type PatchClaimBody = z.infer<typeof PatchClaimBody>;

/**
 * POST /api/claims/submit: `{ claimId, idempotencyKey? }` submits a draft; otherwise the claim's fields create it
 * inline, where `totalCharge` (dollars) is required and must equal the lines' sum. A body with no lines or no
 * diagnoses is the scrubber's (422 SCRUB_BLOCKED, DECISIONS "Claims out"); every other body rule is a 400 here.
 */
export const SubmitClaimBody = z
  .object({
    claimId: ClaimId.optional(),
    patientId: ClaimId.optional(),
    ...claimFields,
    serviceDate: claimFields.serviceDate.optional(),
    diagnoses: z.array(Code('A diagnosis')).max(MAX_DIAGNOSES, 'A claim needs 1 to 12 diagnoses').optional(),
    lines: z.array(ClaimLineBody).max(MAX_CLAIM_LINES, 'A claim needs 1 to 50 service lines').optional(),
    idempotencyKey: IdempotencyKey.optional(),
  })
  .superRefine((body, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (body.claimId !== undefined) {
      for (const field of [
        'patientId',
        'totalCharge',
        'serviceDate',
        'placeOfService',
        'diagnoses',
        'lines',
        'renderingNpi',
      ] as const) {
        if (body[field] !== undefined) issue(field, `${field} is not accepted together with claimId`);
      }
      return;
    }
    if (body.patientId === undefined) issue('patientId', 'patientId is required to create a claim (or send claimId)');
    if (body.serviceDate === undefined) issue('serviceDate', 'serviceDate is required to create a claim');
    if (body.totalCharge === undefined) issue('totalCharge', 'totalCharge is required to create a claim');
    // No lines or no diagnoses: the scrubber's 422, which lists them with the total.
    if (body.lines?.length && body.diagnoses?.length) addClaimBodyIssues(body, ctx);
  });
export type SubmitClaimBody = z.infer<typeof SubmitClaimBody>;

export function dollarsToCents(value: number | string): number | undefined {
  try {
    return parseDollarsToCents(value);
  } catch {
    return undefined;
  }
}

/**
 * POST /api/claims/{id}/correct (DECISIONS "Claim lifecycle"): any of the claim's own fields, each replacing the
 * original's; the total is the lines' sum. Pointers given without diagnoses (or the reverse) are checked against
 * the original by correctClaim.
 */
export const CorrectClaimBody = z
  .object({
    serviceDate: claimFields.serviceDate.optional(),
    placeOfService: claimFields.placeOfService,
    diagnoses: Diagnoses.optional(),
    lines: Lines.optional(),
    renderingNpi: z.string().trim().max(20).nullable().optional(),
    idempotencyKey: IdempotencyKey.optional(),
  })
  .strict()
  .superRefine(addClaimBodyIssues);
export type CorrectClaimBody = z.infer<typeof CorrectClaimBody>;

/** POST /api/claims/{id}/void: why the claim is withdrawn, for the timeline. */
export const VoidClaimBody = z
  .object({
    reason: z.string().trim().min(1, 'reason is required').max(500),
    idempotencyKey: IdempotencyKey.optional(),
  })
  .strict();
export type VoidClaimBody = z.infer<typeof VoidClaimBody>;

/** POST /api/claims/{id}/secondary: nothing but the key; the claim is the primary's, sent to the secondary. */
export const SecondaryClaimBody = z.object({ idempotencyKey: IdempotencyKey.optional() }).strict();
export type SecondaryClaimBody = z.infer<typeof SecondaryClaimBody>;
