// GET /api/claims/{id}/status: what the payer has said of the claim, from the stored 277CA and 277 documents (read
// again from their exact bytes), newest last. With refresh=true a 276 goes to the payer first (real time through
// the clearinghouse) and its 277 joins the history; a claim still `submitted` then moves to accepted or rejected
// as the 277 says (when the 277CA never came). Money is the 835's business: a 277 never marks a claim paid.
import { z } from 'zod';
import type { Deps } from '../deps';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { ClearinghouseTransport } from '../clearinghouse/clearinghouse-transport';
import { build276, type Build276Input } from '../x12/build-276';
import { read277, type ClaimStatus277 } from '../x12/read-277';
import { X12ReadError } from '../x12/x12-read-error';
import { getBillingParties, getClinicClaim, type ClinicClaim } from './claim-records';
import { recordClaimEvent, transitionClaim } from './claim-states';
import { CLAIM_STATUSES } from './claim-view';
import { describe277Status } from './describe-277-status';
import { enqueueSandboxRemittance } from './sandbox-remittance';
import { takeControlNumber } from './take-control-numbers';

export const ClaimStatusQuery = z.object({
  refresh: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
});

export const PayerStatusView = z.object({
  kind: z.enum(['277CA', '277']),
  at: z.string(),
  controlNumber: z.string(),
  statusCategory: z.string(),
  statusCode: z.string(),
  entityCode: z.string().nullable(),
  /** The codes in words, with the payer's message. */
  words: z.string(),
  accepted: z.boolean(),
  payerClaimId: z.string().nullable(),
  statusDate: z.string().nullable(),
  chargeCents: z.number().int().nullable(),
  paidCents: z.number().int().nullable(),
});

export const ClaimStatusView = z.object({
  claimId: z.string(),
  status: z.enum(CLAIM_STATUSES),
  statusReason: z.string().nullable(),
  /** Whether a 276 was sent by this request. */
  refreshed: z.boolean(),
  history: z.array(PayerStatusView),
  correlationId: z.string(),
});
export type ClaimStatusView = z.infer<typeof ClaimStatusView>;

type Input = { clinicId: string; claimId: string; refresh: boolean; correlationId: string };

/**
 * @throws NOT_FOUND (404) for a claim not in the clinic; NOT_EXECUTABLE (409) on refresh of a claim never sent;
 *   TRANSPORT_FAILED (502) when the 276 cannot be sent or its answer read (nothing is stored then).
 */
export async function getClaimStatus(
  deps: Pick<Deps, 'db' | 'clock'> & { clearinghouse?: ClearinghouseTransport },
  input: Input,
): Promise<ClaimStatusView> {
  const { db } = deps;
  let claim = await getClinicClaim(db, input.clinicId, input.claimId);
  if (input.refresh) {
    if (!deps.clearinghouse) throw new Error('refresh needs the clearinghouse');
    await refreshStatus({ ...deps, clearinghouse: deps.clearinghouse }, claim, input);
    claim = await getClinicClaim(db, input.clinicId, input.claimId);
  }
  return {
    claimId: claim.id,
    status: claim.status as ClaimStatusView['status'],
    statusReason: claim.statusReason,
    refreshed: input.refresh,
    history: await storedHistory(db, claim),
    correlationId: input.correlationId,
  };
}

async function storedHistory(db: Db, claim: ClinicClaim): Promise<ClaimStatusView['history']> {
  const documents = await db.claimTransmission.findMany({
    where: { claimId: claim.id, clinicId: claim.clinicId, direction: 'in', kind: { in: ['277CA', '277'] } },
    orderBy: [{ at: 'asc' }, { id: 'asc' }],
  });
  return documents.flatMap((document) => {
    const answer = answerFor(read277(document.x12).claims, claim.id);
    if (!answer) return [];
    return [
      {
        kind: document.kind as '277CA' | '277',
        at: document.at.toISOString(),
        controlNumber: document.controlNumber,
        statusCategory: answer.statusCategory,
        statusCode: answer.statusCode,
        entityCode: answer.entityCode,
        words: describe277Status(answer),
        accepted: answer.accepted,
        payerClaimId: answer.payerClaimId,
        statusDate: answer.statusDate,
        chargeCents: answer.chargeCents,
        paidCents: answer.paidCents,
      },
    ];
  });
}

function answerFor(claims: ClaimStatus277[], claimId: string): ClaimStatus277 | undefined {
  return claims.find((c) => c.claimId === claimId) ?? (claims.length === 1 ? claims[0] : undefined);
}

async function refreshStatus(
  deps: Pick<Deps, 'db' | 'clock'> & { clearinghouse: ClearinghouseTransport },
  claim: ClinicClaim,
  input: Input,
): Promise<void> {
  const { db, clearinghouse } = deps;
  // A `sending` claim has no acknowledgment yet: nothing the payer could answer about.
  if (claim.status === 'draft' || claim.status === 'sending' || !claim.payerId || !claim.memberId) {
    throw new AppError('NOT_EXECUTABLE', 'This claim has not been sent to a payer, so there is no status to ask for');
  }
  const { clinic, patient } = await getBillingParties(db, input.clinicId, claim.patientId);
  const payerClaimId = (await storedHistory(db, claim)).findLast((s) => s.payerClaimId)?.payerClaimId ?? undefined;
  const controlNumber = await takeControlNumber(db, '276');
  const dates = claim.lines.map((line) => line.serviceDate ?? claim.serviceDate).sort();
  const parties = partiesOf(patient);
  const request: Build276Input = {
    interchangeControlNumber: controlNumber,
    groupControlNumber: controlNumber,
    transactionControlNumber: String(controlNumber).padStart(4, '0'),
    senderId: clearinghouse.parties.senderId,
    receiverId: clearinghouse.parties.receiverId,
    usageIndicator: clearinghouse.parties.usageIndicator,
    createdAt: deps.clock(),
    payer: { id: claim.payerId, name: claim.payerName ?? claim.payerId },
    receiver: { id: clearinghouse.parties.senderId, name: clinic.billingProviderName ?? 'PROVIDER' },
    provider: { npi: clinic.billingNpi ?? '', name: clinic.billingProviderName ?? 'PROVIDER' },
    subscriber: { memberId: claim.memberId, ...parties.subscriber },
    ...(parties.patient ? { patient: parties.patient } : {}),
    claim: {
      claimId: claim.id,
      ...(payerClaimId ? { payerClaimId } : {}),
      totalChargeCents: Number(claim.totalChargeCents),
      serviceDates: { from: dates[0] ?? claim.serviceDate, to: dates.at(-1) ?? claim.serviceDate },
    },
  };
  let x12: string;
  try {
    x12 = build276(request);
  } catch (error) {
    if (error instanceof RangeError)
      throw new AppError('UNPROCESSABLE', `The status request cannot be written: ${error.message}`, { cause: error });
    throw error;
  }
  const answerText = await clearinghouse.requestStatus(x12, { correlationId: input.correlationId });
  let report: ReturnType<typeof read277>;
  try {
    report = read277(answerText);
  } catch (error) {
    if (!(error instanceof X12ReadError)) throw error;
    throw new AppError('TRANSPORT_FAILED', 'The clearinghouse could not be reached; try again later', { cause: error });
  }
  const answer = answerFor(report.claims, claim.id);
  const now = deps.clock();

  await db.$transaction(async (tx) => {
    const transmission = (direction: 'out' | 'in', kind: string, control: string, text: string) =>
      tx.claimTransmission.create({
        data: {
          clinicId: input.clinicId,
          claimId: claim.id,
          direction,
          kind,
          controlNumber: control,
          x12: text,
          correlationId: input.correlationId,
          at: now,
        },
      });
    await transmission('out', '276', String(controlNumber), x12);
    await transmission('in', '277', report.interchangeControlNumber, answerText);
    const detail = answer
      ? {
          category: answer.statusCategory,
          code: answer.statusCode,
          entity: answer.entityCode,
          words: describe277Status(answer),
          controlNumber: report.interchangeControlNumber,
        }
      : { words: 'The payer sent no status for this claim', controlNumber: report.interchangeControlNumber };
    const moved =
      answer !== undefined &&
      claim.status === 'submitted' &&
      (await transitionClaim(tx, {
        clinicId: input.clinicId,
        claimId: claim.id,
        from: 'submitted',
        to: answer.accepted ? 'accepted' : 'rejected',
        kind: '277',
        detail,
        correlationId: input.correlationId,
        at: now,
        ...(answer.accepted ? {} : { set: { statusReason: `Rejected by the payer (277): ${detail.words}` } }),
      }));
    // As on submit: a sandbox claim the payer accepted is paid or denied later by the sandbox payer's 835.
    if (moved && answer?.accepted && clearinghouse.mode === 'sandbox')
      await enqueueSandboxRemittance(tx, {
        clinicId: input.clinicId,
        claimId: claim.id,
        correlationId: input.correlationId,
        now,
      });
    if (!moved)
      await recordClaimEvent(tx, {
        clinicId: input.clinicId,
        claimId: claim.id,
        kind: '277',
        detail,
        correlationId: input.correlationId,
        at: now,
      });
  });
}

/**
 * 2100D and, for a dependent, 2000E/2100E: the patient is the subscriber, or a dependent of the subscriber the card
 * names (whose DMG the 276 then does not carry, so a card without a birth date is no obstacle).
 */
function partiesOf(
  patient: Awaited<ReturnType<typeof getBillingParties>>['patient'],
): Pick<Build276Input, 'patient'> & { subscriber: Omit<Build276Input['subscriber'], 'memberId'> } {
  const sex = (gender: unknown): 'F' | 'M' | 'U' =>
    gender === 'female' || gender === 'F' ? 'F' : gender === 'male' || gender === 'M' ? 'M' : 'U';
  const self = {
    lastName: patient.lastName,
    firstName: patient.firstName,
    birthDate: patient.birthDate,
    sex: sex(patient.gender),
  };
  if (patient.coverageRelationship === '18') return { subscriber: self };
  const card = (patient.coverageSubscriber ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const cardBirthDate = text(card.birthDate);
  return {
    subscriber: {
      lastName: text(card.lastName),
      firstName: text(card.firstName),
      // Not written for a dependent (the TR3 sends the subscriber's DMG only when they are the patient).
      birthDate: /^\d{4}-\d{2}-\d{2}$/.test(cardBirthDate) ? cardBirthDate : patient.birthDate,
      sex: sex(card.sex),
    },
    patient: self,
  };
}
