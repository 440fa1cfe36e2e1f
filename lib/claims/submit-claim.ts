// Claim submission (DECISIONS "Claims out"): "submitted" means transmitted. A draft (or a claim created inline from
// the body) is scrubbed with every edit; any failure is 422 SCRUB_BLOCKED with every issue and nothing sent or
// written. Otherwise the 837P is built with the next control number, sent through the clearinghouse, and its
// acknowledgments decide the state: 999 A/E → submitted (then the 277CA: accepted or rejected), 999 R → it stays a
// draft with the reason. Every document sent or received is kept with its exact bytes.
//
// One transaction holds the whole exchange: the idempotency key, the claim row (created or locked by a conditional
// update), the send, and what came back. So a transport failure (502) rolls everything back and the claim is as it
// was; of any number of concurrent submits of one key or one draft exactly one sends, and the others wait for it
// and then find the key used (409) or the claim no longer a draft (422).
import { z } from 'zod';
import type { Deps } from '../deps';
import type { Prisma } from '../db';
import { AppError, isAppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { isUniqueViolation } from '../db/is-unique-violation';
import { parseDollarsToCents } from '../money/dollars';
import { requireClinicPatients } from '../patients/require-clinic-patients';
import type { ClearinghouseTransport } from '../clearinghouse/clearinghouse-transport';
import { build837p } from '../x12/build-837p';
import { read999, type Ack999 } from '../x12/read-999';
import { read277 } from '../x12/read-277';
import { X12ReadError } from '../x12/x12-read-error';
import type { ClaimRecord } from './assemble-professional-claim';
import type { SubmitClaimBody } from './claim-body';
import { getBillingParties, getClinicClaim, normaliseDiagnoses, toLineRows } from './claim-records';
import { recordClaimEvent, transitionClaim } from './claim-states';
import { CLAIM_LINES, ClaimView, toClaimView } from './claim-view';
import { newClaimId } from './create-claim';
import { describe277Status } from './describe-277-status';
import { enqueueSandboxRemittance } from './sandbox-remittance';
import { scrubStoredClaim } from './scrub-stored-claim';
import { takeControlNumber } from './take-control-numbers';

export const ClaimSubmitted = ClaimView.extend({ correlationId: z.string() });
export type ClaimSubmitted = z.infer<typeof ClaimSubmitted>;

const IDEMPOTENCY_PURPOSE = 'claims.submit';
// The send happens inside the transaction: its budget covers the clearinghouse's (15 s per exchange, up to three
// exchanges in batch mode) with room to spare; maxWait covers concurrent submits queueing for a connection.
const TRANSACTION_OPTIONS = { maxWait: 20_000, timeout: 60_000 };
const ALREADY_SUBMITTED = 'Only a draft claim can be submitted; this one already was';

type SubmitInput = SubmitClaimBody & { clinicId: string; userId: string; orgId: string; correlationId: string };

/**
 * @throws NOT_FOUND (404) for a claimId not in the clinic; UNPROCESSABLE (422) for a claim that is not a draft;
 *   SCRUB_BLOCKED (422) when any scrub edit fails; OUT_OF_SCOPE (403) for a patient outside the clinic;
 *   IDEMPOTENCY_KEY_REUSED (409) for a key used before; TRANSPORT_FAILED (502) when the clearinghouse cannot be
 *   reached or answers nothing readable. In every one of these cases nothing is created or changed.
 */
export async function submitClaim(
  deps: Pick<Deps, 'db' | 'clock'> & { clearinghouse: ClearinghouseTransport },
  input: SubmitInput,
): Promise<ClaimSubmitted> {
  const { db, clearinghouse } = deps;
  const { clinicId, correlationId } = input;
  const idempotencyKey = input.idempotencyKey ?? null;
  const now = deps.clock();

  // A used key is 409 whatever else is wrong: checked first, and again on a refusal, since the request that
  // used it may have committed meanwhile (its claim then makes this one a duplicate, or no longer a draft).
  await assertKeyUnused(deps, clinicId, idempotencyKey);
  const { claim, patientId, isNew } = await claimToSubmit(deps, input).catch(async (error: unknown) => {
    await assertKeyUnused(deps, clinicId, idempotencyKey);
    throw error;
  });
  const { clinic, patient } = await getBillingParties(db, clinicId, patientId);
  const { professionalClaim, issues } = await scrubStoredClaim(db, {
    clinicId,
    patientId,
    claim,
    clinic,
    patient,
    now,
  });
  if (issues.length > 0) {
    await assertKeyUnused(deps, clinicId, idempotencyKey);
    throw new AppError('SCRUB_BLOCKED', 'The claim did not pass the scrubber; nothing was sent', { issues });
  }

  const { parties } = clearinghouse;
  const submitterEmail = parties.contactPhone
    ? ''
    : ((await db.user.findUnique({ where: { id: input.userId }, select: { email: true } }))?.email ?? '');
  const controlNumber = await takeControlNumber(db, '837P');
  const transactionControlNumber = String(controlNumber).padStart(4, '0');
  let x12: string;
  try {
    x12 = build837p({
      interchangeControlNumber: controlNumber,
      groupControlNumber: controlNumber,
      transactionControlNumber,
      senderId: parties.senderId,
      receiverId: parties.receiverId,
      usageIndicator: parties.usageIndicator,
      createdAt: now,
      batchId: claim.id,
      submitter: {
        id: parties.senderId,
        name: professionalClaim.billingProvider.name,
        contactName: professionalClaim.billingProvider.name,
        // The operator's EDI phone when set, else the submitting user's email (real, reachable, never invented).
        ...(parties.contactPhone ? { phone: parties.contactPhone } : { email: submitterEmail }),
      },
      receiver: { id: parties.receiverId, name: parties.receiverName },
      claim: professionalClaim,
    });
  } catch (error) {
    // The scrubber's edits cover the builder's checks; a value they let through is refused, never sent.
    if (error instanceof RangeError)
      throw new AppError('UNPROCESSABLE', `The claim cannot be written as an 837P: ${error.message}`, { cause: error });
    throw error;
  }

  try {
    const stored = await db.$transaction(async (tx) => {
      if (idempotencyKey !== null) {
        await tx.idempotencyKey.create({
          data: { clinicId, purpose: IDEMPOTENCY_PURPOSE, key: idempotencyKey, resourceId: claim.id },
        });
      }
      if (isNew) await createDraft(tx, claim, input, patientId);
      else {
        // Locks the draft for this transaction: a concurrent submit of it waits here, then finds it submitted.
        const { count } = await tx.claim.updateMany({
          where: { id: claim.id, clinicId, status: 'draft' },
          data: { correlationId },
        });
        if (count === 0) throw new AppError('UNPROCESSABLE', ALREADY_SUBMITTED);
      }

      const acks = await clearinghouse.submitClaim(x12, { correlationId });
      const ack999 = readOrFail(() => read999(acks.ack999));
      const ack277ca = acks.ack277ca === null ? null : readOrFail(() => read277(acks.ack277ca!));
      const transmission = (direction: 'out' | 'in', kind: string, control: string, text: string) =>
        tx.claimTransmission.create({
          data: { clinicId, claimId: claim.id, direction, kind, controlNumber: control, x12: text, correlationId },
        });
      await transmission('out', '837P', String(controlNumber), x12);
      await transmission('in', '999', ack999.interchangeControlNumber, acks.ack999);

      const setStatus = ack999.sets.find((set) => set.controlNumber === transactionControlNumber)?.status;
      const status = setStatus ?? ack999.groupStatus;
      const errors = ack999.sets.flatMap((set) => set.errors).map((e) => `${e.segmentId} ${e.position}: ${e.code}`);
      if (status !== 'A' && status !== 'E') {
        const statusReason = `Rejected by the clearinghouse (999 ${status})${errors.length ? `: ${errors.join('; ')}` : ''}`;
        await tx.claim.updateMany({ where: { id: claim.id, status: 'draft' }, data: { statusReason } });
        await recordClaimEvent(tx, {
          clinicId,
          claimId: claim.id,
          kind: '999',
          detail: { acknowledgment: status, errors, controlNumber: ack999.interchangeControlNumber },
          correlationId,
        });
        return finish(tx, input, claim.id, { transmitted: false, acknowledgment: status });
      }

      await transitionClaim(tx, {
        clinicId,
        claimId: claim.id,
        from: 'draft',
        to: 'submitted',
        kind: '999',
        detail: { acknowledgment: status, errors, controlNumber: ack999.interchangeControlNumber },
        correlationId,
        set: {
          submittedAt: now,
          payerId: professionalClaim.payer.id,
          payerName: professionalClaim.payer.name,
          memberId: professionalClaim.subscriber.memberId,
          statusReason: status === 'E' ? `Accepted with errors (999 E): ${errors.join('; ')}` : null,
          ...(idempotencyKey !== null ? { idempotencyKey } : {}),
        },
      });

      const answer = ack277ca?.claims.find((c) => c.claimId === claim.id) ?? ack277ca?.claims[0];
      if (ack277ca && answer) {
        await transmission('in', '277CA', ack277ca.interchangeControlNumber, acks.ack277ca!);
        const detail = {
          category: answer.statusCategory,
          code: answer.statusCode,
          entity: answer.entityCode,
          words: describe277Status(answer),
          payerClaimId: answer.payerClaimId,
          controlNumber: ack277ca.interchangeControlNumber,
        };
        if (answer.accepted) {
          await transitionClaim(tx, {
            clinicId,
            claimId: claim.id,
            from: 'submitted',
            to: 'accepted',
            kind: '277CA',
            detail,
            correlationId,
          });
          // The sandbox payer's remittance arrives later as a real 835 (lib/claims/sandbox-remittance.ts).
          if (clearinghouse.mode === 'sandbox')
            await enqueueSandboxRemittance(tx, { clinicId, claimId: claim.id, correlationId, now });
        } else {
          await transitionClaim(tx, {
            clinicId,
            claimId: claim.id,
            from: 'submitted',
            to: 'rejected',
            kind: '277CA',
            detail,
            correlationId,
            set: { statusReason: `Rejected by the payer (277CA): ${describe277Status(answer)}` },
          });
        }
      }
      return finish(tx, input, claim.id, { transmitted: true, acknowledgment: status });
    }, TRANSACTION_OPTIONS);
    return { ...toClaimView(stored), correlationId };
  } catch (error) {
    if (isUniqueViolation(error)) throw keyReused(error);
    if (isAppError(error) && error.code === 'UNPROCESSABLE') await assertKeyUnused(deps, clinicId, idempotencyKey);
    throw error;
  }
}

function keyReused(cause?: unknown): AppError {
  return new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was already used; nothing was created', {
    cause,
  });
}

/** @throws IDEMPOTENCY_KEY_REUSED (409) when the clinic already used the key to submit. */
async function assertKeyUnused(deps: Pick<Deps, 'db'>, clinicId: string, key: string | null): Promise<void> {
  if (key === null) return;
  const used = await deps.db.idempotencyKey.findUnique({
    where: { clinicId_purpose_key: { clinicId, purpose: IDEMPOTENCY_PURPOSE, key } },
    select: { id: true },
  });
  if (used) throw keyReused();
}

/** The claim as it will be sent: the stored draft, or a new one from the body. */
async function claimToSubmit(
  deps: Pick<Deps, 'db'>,
  input: SubmitInput,
): Promise<{ claim: ClaimRecord & { status: string }; patientId: string; isNew: boolean }> {
  if (input.claimId !== undefined) {
    const claim = await getClinicClaim(deps.db, input.clinicId, input.claimId);
    if (claim.status !== 'draft') throw new AppError('UNPROCESSABLE', ALREADY_SUBMITTED);
    return { claim, patientId: claim.patientId, isNew: false };
  }
  const patientId = input.patientId!;
  await requireClinicPatients(deps.db, input.clinicId, [patientId]);
  const id = newClaimId();
  const lines = toLineRows(input.clinicId, id, input.lines ?? []);
  return {
    claim: {
      id,
      status: 'draft',
      totalChargeCents: BigInt(parseDollarsToCents(input.totalCharge!)),
      serviceDate: input.serviceDate!,
      placeOfService: input.placeOfService ?? '11',
      diagnoses: normaliseDiagnoses(input.diagnoses ?? []),
      renderingNpi: input.renderingNpi ?? null,
      lines,
    },
    patientId,
    isNew: true,
  };
}

async function createDraft(
  tx: Prisma.TransactionClient,
  claim: ClaimRecord,
  input: SubmitInput,
  patientId: string,
): Promise<void> {
  await tx.claim.create({
    data: {
      id: claim.id,
      clinicId: input.clinicId,
      patientId,
      status: 'draft',
      totalChargeCents: claim.totalChargeCents,
      serviceDate: claim.serviceDate,
      placeOfService: claim.placeOfService,
      diagnoses: claim.diagnoses,
      renderingNpi: claim.renderingNpi,
      correlationId: input.correlationId,
    },
  });
  await tx.claimLine.createMany({ data: toLineRows(input.clinicId, claim.id, input.lines ?? []) });
  await recordClaimEvent(tx, {
    clinicId: input.clinicId,
    claimId: claim.id,
    kind: 'created',
    toStatus: 'draft',
    detail: { by: input.userId },
    correlationId: input.correlationId,
  });
}

async function finish(
  tx: Prisma.TransactionClient,
  input: SubmitInput,
  claimId: string,
  detail: { transmitted: boolean; acknowledgment: Ack999['groupStatus'] | string },
) {
  await recordAudit(tx, {
    action: 'claims.submit',
    outcome: detail.transmitted ? 'success' : 'refused',
    correlationId: input.correlationId,
    userId: input.userId,
    orgId: input.orgId,
    clinicId: input.clinicId,
    detail: { claimId, created: input.claimId === undefined, acknowledgment: detail.acknowledgment },
  });
  return tx.claim.findUniqueOrThrow({ where: { id: claimId }, include: CLAIM_LINES });
}

/** An acknowledgment we cannot read is no acknowledgment: the send failed (502) and everything rolls back. */
function readOrFail<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof X12ReadError || !isAppError(error))
      throw new AppError('TRANSPORT_FAILED', 'The clearinghouse could not be reached; try again later', {
        cause: error,
      });
    throw error;
  }
}
