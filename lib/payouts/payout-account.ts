// A clinic's payout account (DECISIONS "Money out"): set by an admin with step-up, sealed at rest with SEAL_KEY
// (routing and account numbers, each bound to the clinic by the seal's context), shown masked, audited. A new
// or changed account is unverified until the bank confirms the batch carrying its prenote.
import { z } from 'zod';
import type { Deps } from '../deps';
import type { Actor } from '../http/route';
import type { Prisma } from '../db';
import { requireSealKey } from '../config';
import { seal, unseal } from '../crypto/seal';
import { recordAudit } from '../audit/record-audit';
import { AppError } from '../errors';
import { isAbaRoutingNumber } from './aba';

// Each message is a sentence the settings screen shows beside its field.
export const PayoutAccountBody = z.object({
  routingNumber: z
    .string({ error: 'Enter the routing number: 9 digits' })
    .regex(/^\d{9}$/, 'Enter the routing number: 9 digits')
    .refine(
      isAbaRoutingNumber,
      "This routing number fails its ABA check digit: check it against the bank's letter or a cheque",
    ),
  accountNumber: z
    .string({ error: 'Enter the account number: 4 to 17 digits' })
    .regex(/^\d{4,17}$/, 'Enter the account number: 4 to 17 digits'),
  accountType: z.enum(['checking', 'savings'], { error: 'Choose checking or savings' }),
  // NACHA's receiver name field holds 22 characters of its alphabet (checked again when the file is built).
  holderName: z
    .string({ error: 'Enter the account holder' })
    .trim()
    .min(1, 'Enter the account holder')
    .max(22, 'The account holder fits 22 characters at most')
    .regex(/^[A-Za-z0-9 &',.\-/]+$/, "The account holder may hold letters, digits, spaces and & ' , . - /"),
});

export const PayoutAccountView = z.object({
  routingLast4: z.string(),
  accountLast4: z.string(),
  accountType: z.enum(['checking', 'savings']),
  holderName: z.string(),
  verified: z.boolean(),
  /** The batch carrying the account's prenote while it awaits the bank's confirmation. */
  prenoteBatchId: z.string().nullable(),
});
export type PayoutAccountView = z.infer<typeof PayoutAccountView>;

/**
 * Where the clinic's account stands on the way to being paid into, for the screens that build batches: none set,
 * its prenote still to send (the next batch carries it), sent and awaiting the bank's confirmation, or verified.
 */
export const PAYOUT_ACCOUNT_STATES = ['none', 'needs_prenote', 'prenote_sent', 'verified'] as const;
export type PayoutAccountState = (typeof PAYOUT_ACCOUNT_STATES)[number];

export function payoutAccountState(row: Pick<Row, 'verifiedAt' | 'prenoteBatchId'> | null): PayoutAccountState {
  if (!row) return 'none';
  if (row.verifiedAt !== null) return 'verified';
  return row.prenoteBatchId === null ? 'needs_prenote' : 'prenote_sent';
}

const routingContext = (clinicId: string) => `payout-account:routing:${clinicId}`;
const accountContext = (clinicId: string) => `payout-account:account:${clinicId}`;

type Row = Prisma.PayoutAccountGetPayload<object>;

/** The clear numbers, for the one place that needs them: writing the NACHA entry. */
export function unsealPayoutAccount(row: Row, sealKey: Buffer) {
  return {
    routingNumber: unseal(row.routingSealed, sealKey, routingContext(row.clinicId)),
    accountNumber: unseal(row.accountSealed, sealKey, accountContext(row.clinicId)),
    accountType: row.accountType as 'checking' | 'savings',
    holderName: row.holderName,
  };
}

function toView(row: Row, sealKey: Buffer): PayoutAccountView {
  const { routingNumber } = unsealPayoutAccount(row, sealKey);
  return {
    routingLast4: routingNumber.slice(-4),
    accountLast4: row.accountLast4,
    accountType: row.accountType as 'checking' | 'savings',
    holderName: row.holderName,
    verified: row.verifiedAt !== null,
    prenoteBatchId: row.prenoteBatchId,
  };
}

export async function readPayoutAccount(deps: Pick<Deps, 'db' | 'config'>, clinicId: string) {
  const sealKey = requireSealKey(deps.config);
  const row = await deps.db.payoutAccount.findUnique({ where: { clinicId } });
  if (!row) throw new AppError('NOT_FOUND', 'The clinic has no payout account');
  return toView(row, sealKey);
}

/** Sets (or replaces) the account; any change makes it unverified again, awaiting a new prenote. */
export async function setPayoutAccount(
  deps: Pick<Deps, 'db' | 'config'>,
  actor: Actor,
  body: z.infer<typeof PayoutAccountBody>,
): Promise<PayoutAccountView> {
  const sealKey = requireSealKey(deps.config);
  const { clinicId } = actor;
  const data = {
    routingSealed: seal(body.routingNumber, sealKey, routingContext(clinicId)),
    accountSealed: seal(body.accountNumber, sealKey, accountContext(clinicId)),
    accountLast4: body.accountNumber.slice(-4),
    accountType: body.accountType,
    holderName: body.holderName,
    prenoteBatchId: null,
    verifiedAt: null,
    updatedBy: actor.userId,
  };
  return deps.db.$transaction(async (tx) => {
    const row = await tx.payoutAccount.upsert({ where: { clinicId }, create: { clinicId, ...data }, update: data });
    await recordAudit(tx, {
      action: 'clinic.payout-account.set',
      outcome: 'success',
      correlationId: actor.correlationId,
      userId: actor.userId,
      orgId: actor.orgId,
      clinicId,
      detail: { accountLast4: row.accountLast4, accountType: row.accountType },
    });
    return toView(row, sealKey);
  });
}
