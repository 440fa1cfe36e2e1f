// The claim's body as DECISIONS "Claims out" fixes it, for POST /api/claims (a draft), PATCH /api/claims/{id} and
// inline-create on POST /api/claims/submit. The schema checks types and bounds only: what makes a claim payable
// (code shapes, pointers, positive units and charges, dates) is the scrubber's, so a draft may be saved half
// done and the editor shows every scrub issue at once instead of one 400 at a time.
import { z } from 'zod';
import { MAX_AMOUNT_CENTS } from '../money/cents';
import { parseDollarsToCents } from '../money/dollars';

export const ClaimId = z.string().trim().min(1).max(200);
export const ClaimParams = z.object({ id: ClaimId });

export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, 'idempotencyKey must be 1-200 printable ASCII characters');

const DateText = (field: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be YYYY-MM-DD`);
const Code = z.string().trim().max(20);
const MAX_UNITS = 99_999;

export const ClaimLineBody = z.object({
  /** CPT or HCPCS Level II. */
  procedureCode: Code,
  /** Up to 4 two-character modifiers (the scrubber checks their shape and count). */
  modifiers: z.array(Code).max(10).default([]),
  /** 1 to 4 one-based positions in `diagnoses`. */
  diagnosisPointers: z.array(z.number().int().min(-99).max(99)).max(12),
  units: z.number().int().min(-MAX_UNITS).max(MAX_UNITS),
  chargeCents: z.number().int().min(-MAX_AMOUNT_CENTS).max(MAX_AMOUNT_CENTS),
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
  else if (cents > MAX_AMOUNT_CENTS)
    ctx.addIssue({ code: 'custom', message: 'totalCharge must be at most 1000000000.00 dollars' });
});

const claimFields = {
  serviceDate: DateText('serviceDate'),
  /** CMS place-of-service code; default "11" (office). */
  placeOfService: z.string().trim().max(10).optional(),
  /** 1 to 12 ICD-10-CM codes, with or without the dot; the first is the principal diagnosis. */
  diagnoses: z.array(Code).max(20).default([]),
  lines: z.array(ClaimLineBody).max(60).default([]),
  /** Defaults to the clinic's billing provider. */
  renderingNpi: z.string().trim().max(20).optional(),
  totalCharge: Dollars.optional(),
};

/** POST /api/claims: a draft. `totalCharge`, when given, is kept and the scrubber checks it against the lines. */
export const CreateClaimBody = z.object({ patientId: ClaimId, ...claimFields });
export type CreateClaimBody = z.infer<typeof CreateClaimBody>;

/** PATCH /api/claims/{id}: the same fields, each optional; the patient does not change. */
export const PatchClaimBody = z
  .object({
    serviceDate: claimFields.serviceDate.optional(),
    placeOfService: claimFields.placeOfService,
    diagnoses: z.array(Code).max(20).optional(),
    lines: z.array(ClaimLineBody).max(60).optional(),
    renderingNpi: z.string().trim().max(20).nullable().optional(),
    totalCharge: Dollars.nullable().optional(),
  })
  .strict();
export type PatchClaimBody = z.infer<typeof PatchClaimBody>;

/**
 * POST /api/claims/submit: `{ claimId, idempotencyKey? }` submits a draft; otherwise the claim's fields create it
 * inline, where `totalCharge` (dollars) is required and must equal the lines' sum.
 */
export const SubmitClaimBody = z
  .object({
    claimId: ClaimId.optional(),
    patientId: ClaimId.optional(),
    ...claimFields,
    serviceDate: claimFields.serviceDate.optional(),
    diagnoses: z.array(Code).max(20).optional(),
    lines: z.array(ClaimLineBody).max(60).optional(),
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
  });
export type SubmitClaimBody = z.infer<typeof SubmitClaimBody>;

export function dollarsToCents(value: number | string): number | undefined {
  try {
    return parseDollarsToCents(value);
  } catch {
    return undefined;
  }
}
