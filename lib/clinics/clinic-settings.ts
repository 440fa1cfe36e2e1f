// GET and PATCH /api/clinic's domain: the clinic's own settings, its time zone ("today" of every screen and of
// the default date of service) and its billing provider (written into every 837P and used as the default
// rendering provider of eligibility checks). Any signed-in user reads them (screens need the time zone and
// the provider); only users:admin changes them, with step-up, in one transaction with its audit row.
import { z } from 'zod';
import type { Db, Prisma } from '../db';
import { recordAudit } from '../audit/record-audit';
import { AppError } from '../errors';
import { isValidNpi } from '../claims/scrub/is-valid-npi';
import { isValidTimeZone } from '../time/clinic-day';

// The 837P N3/N4 address (lib/x12/professional-claim.ts PostalAddress), with X12's element sizes.
const addressText = (field: string, min: number, max: number, sentence: string) =>
  z
    .string({ error: sentence })
    .trim()
    .min(min, { error: sentence })
    .max(max, { error: `${field} must be at most ${max} characters` })
    .regex(/^[A-Za-z0-9 .,#'/&-]*$/, { error: `${field} may hold only letters, digits, spaces and . , # ' / & -` });

export const BillingAddress = z.object({
  line1: addressText('line1', 1, 55, 'Enter the street address'),
  line2: addressText('line2', 1, 55, 'Enter the second address line, or leave it out').optional(),
  city: addressText('city', 2, 30, 'Enter the city'),
  state: z
    .string({ error: 'Enter the two-letter state code, e.g. CA' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, { error: 'Enter the two-letter state code, e.g. CA' }),
  postalCode: z
    .string({ error: 'Enter the ZIP code: 5 or 9 digits' })
    .trim()
    .transform((zip) => zip.replace('-', ''))
    .pipe(z.string().regex(/^\d{5}(\d{4})?$/, { error: 'Enter the ZIP code: 5 or 9 digits' })),
});
export type BillingAddress = z.infer<typeof BillingAddress>;

export const ClinicSettingsView = z.object({
  id: z.string(),
  name: z.string(),
  /** IANA name, e.g. America/Los_Angeles. */
  timeZone: z.string(),
  /** 10 digits: the number printed on patient statements; null until set. */
  phone: z.string().nullable(),
  billingProvider: z.object({
    npi: z.string().nullable(),
    name: z.string().nullable(),
    /** NUCC provider taxonomy code (837P PRV03). */
    taxonomy: z.string().nullable(),
    /** The employer identification number, 9 digits (837P REF*EI). */
    taxId: z.string().nullable(),
    address: BillingAddress.nullable(),
  }),
});
export type ClinicSettingsView = z.infer<typeof ClinicSettingsView>;

/** Every field optional: PATCH changes what it names and keeps the rest (other keys are dropped, as everywhere). */
export const ClinicSettingsPatch = z.object({
  timeZone: z
    .string({ error: 'Choose the time zone the clinic works in' })
    .trim()
    .refine(isValidTimeZone, { error: 'Choose a time zone from the list, e.g. America/Los_Angeles' })
    .optional(),
  phone: z
    .string({ error: 'Enter the phone number: 10 digits' })
    .transform((phone) => phone.replace(/[\s().+-]/g, '').replace(/^1(?=\d{10}$)/, ''))
    .pipe(z.string().regex(/^\d{10}$/, { error: 'Enter the phone number: 10 digits' }))
    .optional(),
  billingProvider: z
    .object({
      npi: z
        .string({ error: 'Enter the 10-digit NPI' })
        .trim()
        .refine(isValidNpi, { error: 'Enter the 10-digit NPI as NPPES issued it (its check digit does not match)' })
        .optional(),
      name: z
        .string({ error: 'Enter the billing provider name' })
        .trim()
        .min(1, { error: 'Enter the billing provider name' })
        .max(60, { error: 'The billing provider name must be at most 60 characters' })
        .regex(/^[\x20-\x29\x2B-\x39\x3B-\x5D\x5F-\x7D]*$/, {
          error: 'The billing provider name may hold only plain letters, digits, spaces and punctuation',
        })
        .optional(),
      taxonomy: z
        .string({ error: 'Enter the 10-character taxonomy code, e.g. 261QP2300X' })
        .trim()
        .toUpperCase()
        .regex(/^[0-9]{3}[0-9A-Z]{6}X$/, { error: 'Enter the 10-character taxonomy code, e.g. 261QP2300X' })
        .optional(),
      taxId: z
        .string({ error: 'Enter the tax id: 9 digits' })
        .trim()
        .transform((id) => id.replace('-', ''))
        .pipe(z.string().regex(/^\d{9}$/, { error: 'Enter the tax id: 9 digits' }))
        .optional(),
      address: BillingAddress.optional(),
    })
    .optional(),
});
export type ClinicSettingsPatch = z.infer<typeof ClinicSettingsPatch>;

const SELECT = {
  id: true,
  name: true,
  timeZone: true,
  phone: true,
  billingNpi: true,
  billingProviderName: true,
  billingTaxonomy: true,
  billingTaxId: true,
  billingAddress: true,
} as const;

type ClinicRow = Prisma.ClinicGetPayload<{ select: typeof SELECT }>;

function view(row: ClinicRow): ClinicSettingsView {
  // A stored address that is not a whole 837P address (hand-edited, older rows) reads as none rather than failing.
  const address = BillingAddress.safeParse(row.billingAddress);
  return {
    id: row.id,
    name: row.name,
    timeZone: row.timeZone,
    phone: row.phone,
    billingProvider: {
      npi: row.billingNpi,
      name: row.billingProviderName,
      taxonomy: row.billingTaxonomy,
      taxId: row.billingTaxId,
      address: address.success ? address.data : null,
    },
  };
}

/** The caller's clinic. @throws NOT_FOUND when the session's clinic no longer exists. */
export async function readClinicSettings(deps: { db: Db }, clinicId: string): Promise<ClinicSettingsView> {
  const row = await deps.db.clinic.findUnique({ where: { id: clinicId }, select: SELECT });
  if (!row) throw new AppError('NOT_FOUND', 'The clinic was not found');
  return view(row);
}

export type ClinicActor = { clinicId: string; orgId: string; userId: string; correlationId: string };

/**
 * Applies the named changes to the caller's clinic and audits which fields changed (names, not values: the
 * audit log is read more widely than the settings). An empty patch changes nothing and writes no audit row.
 */
export async function updateClinicSettings(
  deps: { db: Db },
  actor: ClinicActor,
  patch: ClinicSettingsPatch,
): Promise<ClinicSettingsView> {
  const provider = patch.billingProvider ?? {};
  const data: Prisma.ClinicUpdateInput = {
    ...(patch.timeZone !== undefined && { timeZone: patch.timeZone }),
    ...(patch.phone !== undefined && { phone: patch.phone }),
    ...(provider.npi !== undefined && { billingNpi: provider.npi }),
    ...(provider.name !== undefined && { billingProviderName: provider.name }),
    ...(provider.taxonomy !== undefined && { billingTaxonomy: provider.taxonomy }),
    ...(provider.taxId !== undefined && { billingTaxId: provider.taxId }),
    ...(provider.address !== undefined && { billingAddress: provider.address }),
  };
  const changed = Object.keys(data);
  if (changed.length === 0) return readClinicSettings(deps, actor.clinicId);
  const row = await deps.db.$transaction(async (tx) => {
    const updated = await tx.clinic.update({ where: { id: actor.clinicId }, data, select: SELECT });
    await recordAudit(tx, {
      action: 'clinic.settings.update',
      outcome: 'success',
      correlationId: actor.correlationId,
      userId: actor.userId,
      orgId: actor.orgId,
      clinicId: actor.clinicId,
      detail: { changed },
    });
    return updated;
  });
  return view(row);
}
