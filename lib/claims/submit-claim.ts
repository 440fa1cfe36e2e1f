// Claim submission (DECISIONS "Claims out"): "submitted" means transmitted. A draft (or a claim created inline from
// the body) is scrubbed with every edit; any failure is 422 SCRUB_BLOCKED with every issue and nothing sent or
// written. Otherwise the claim goes out through an outbox (DECISIONS "Recurring work"), and no transaction is
// open while the clearinghouse is asked anything:
// 1. one short transaction uses the idempotency key, moves the draft to `sending` (a conditional update: of any
//    number of concurrent submits of one key or one draft exactly one gets past it; the others find the key used
//    (409) or the claim no longer a draft (422)), takes the control numbers for that one only, and records the
//    837P on a transmission and a ClaimSend row, before the send;
// 2. the send, outside any transaction;
// 3. recordClaimAnswer records the 999/277CA in a second short transaction and moves the claim on.
// A send the clearinghouse never received (502) returns the claim to draft and frees the key. An answer that
// cannot be read keeps the claim `sending` with its 837P and waits for a person (502 saying so); a second submit
// of it sends nothing. A crash between 1 and 3 is finished by finishInterruptedSends, which never sends again.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../deps';
import type { Prisma } from '../db';
import { AppError, isAppError } from '../errors';
import { isUniqueViolation } from '../db/is-unique-violation';
import { parseDollarsToCents } from '../money/dollars';
import { requireClinicPatients } from '../patients/require-clinic-patients';
import type {
  ClaimAcknowledgments,
  ClearinghouseParties,
  ClearinghouseTransport,
} from '../clearinghouse/clearinghouse-transport';
import { build837p } from '../x12/build-837p';
import type { ProfessionalClaim } from '../x12/professional-claim';
import type { ClaimRecord } from './assemble-professional-claim';
import type { SubmitClaimBody } from './claim-body';
import { getBillingParties, getClinicClaim, normaliseDiagnoses, toLineRows } from './claim-records';
import { recordClaimEvent, transitionClaim } from './claim-states';
import { ClaimView, toClaimViewOf } from './claim-view';
import { newClaimId } from './create-claim';
import {
  readSentClaim,
  recordClaimAnswer,
  recordUnconfirmedSend,
  UNCONFIRMED_REASON,
  UNREADABLE_REASON,
  type RecordedSend,
} from './record-claim-answer';
import { scrubStoredClaim } from './scrub-stored-claim';
import { takeControlNumber } from './take-control-numbers';

export const ClaimSubmitted = ClaimView.extend({ correlationId: z.string() });
export type ClaimSubmitted = z.infer<typeof ClaimSubmitted>;

const IDEMPOTENCY_PURPOSE = 'claims.submit';
const ALREADY_SUBMITTED = 'Only a draft claim can be submitted; this one already was';
const BEING_SENT =
  'This claim was already sent and its answer is awaited or needs a person; it is not sent again from here';

type SubmitInput = SubmitClaimBody & { clinicId: string; userId: string; orgId: string; correlationId: string };

/**
 * A claim the second pass made (a replacement, a void or a secondary, DECISIONS "Claim lifecycle"): created as a
 * draft in the same short transaction that moves it to `sending`, only once it passed the scrubber, so a refusal
 * leaves nothing behind. `event` is the timeline's words for its creation (which claim it acts on).
 */
export type PreparedClaim = ClaimRecord & {
  patientId: string;
  frequency: '1' | '7' | '8';
  replacesClaimId: string | null;
  payerRank: 'primary' | 'secondary';
  primaryClaimId: string | null;
  event: Prisma.InputJsonObject;
};

type SubmitOptions = {
  /** Send this new claim instead of the body's draft or inline claim. */
  prepared?: PreparedClaim;
  /** The idempotency key's purpose; each second-pass route has its own. */
  purpose?: string;
};

/**
 * @returns the claim as the clearinghouse's answer left it: submitted, accepted or rejected; a draft after a 999 R;
 *   `sending` when the clearinghouse confirmed receipt and its 999 is not ready (finishInterruptedSends fetches it).
 * @throws NOT_FOUND (404) for a claimId not in the clinic; UNPROCESSABLE (422) for a claim that is not a draft
 *   (`sending` included, with zero calls); SCRUB_BLOCKED (422) when any scrub edit fails; OUT_OF_SCOPE (403) for a
 *   patient outside the clinic; IDEMPOTENCY_KEY_REUSED (409) for a key used before: in these cases nothing is
 *   created or changed. TRANSPORT_FAILED (502) when the clearinghouse cannot be reached (the claim is a draft
 *   again, the key unused, the attempted 837P kept), or when its answer cannot be read (the claim stays `sending`
 *   with the 837P and the answer kept, and is never sent again without a person).
 */
export async function submitClaim(
  deps: Pick<Deps, 'db' | 'clock'> & { clearinghouse: ClearinghouseTransport },
  input: SubmitInput,
  options: SubmitOptions = {},
): Promise<ClaimSubmitted> {
  const { db, clearinghouse } = deps;
  const { clinicId, correlationId } = input;
  const idempotencyKey = input.idempotencyKey ?? null;
  const purpose = options.purpose ?? IDEMPOTENCY_PURPOSE;
  const now = deps.clock();

  // A used key is 409 whatever else is wrong: checked first, and again on a refusal, since the request that
  // used it may have committed meanwhile (its claim then makes this one a duplicate, or no longer a draft).
  await assertKeyUnused(deps, clinicId, purpose, idempotencyKey);
  const { claim, patientId, isNew } = await claimToSubmit(deps, input, options.prepared).catch(
    async (error: unknown) => {
      await assertKeyUnused(deps, clinicId, purpose, idempotencyKey);
      throw error;
    },
  );
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
    await assertKeyUnused(deps, clinicId, purpose, idempotencyKey);
    throw new AppError('SCRUB_BLOCKED', 'The claim did not pass the scrubber; nothing was sent', { issues });
  }

  const { parties } = clearinghouse;
  const submitterEmail = parties.contactPhone
    ? ''
    : ((await db.user.findUnique({ where: { id: input.userId }, select: { email: true } }))?.email ?? '');

  // Transaction 1 (short): the key, the claim moved to `sending` by a conditional update (of any number of
  // concurrent submits exactly one gets past it), then, for that one only, the control numbers and the 837P
  // recorded on a transmission and the outbox row, all before anything leaves the process.
  const submissionId = randomUUID();
  let send: RecordedSend;
  let x12: string;
  try {
    ({ send, x12 } = await db.$transaction(async (tx) => {
      if (idempotencyKey !== null) {
        await tx.idempotencyKey.create({
          data: { clinicId, purpose, key: idempotencyKey, resourceId: claim.id },
        });
      }
      if (isNew) await createDraft(tx, claim, input, patientId, options.prepared, now);
      const moved = await transitionClaim(tx, {
        clinicId,
        claimId: claim.id,
        from: 'draft',
        to: 'sending',
        kind: 'sending',
        detail: { by: input.userId },
        correlationId,
        at: now,
        set: {
          correlationId,
          payerId: professionalClaim.payer.id,
          payerName: professionalClaim.payer.name,
          memberId: professionalClaim.subscriber.memberId,
          statusReason: null,
          ...(idempotencyKey !== null ? { idempotencyKey } : {}),
        },
      });
      if (!moved) throw new AppError('UNPROCESSABLE', ALREADY_SUBMITTED);

      // Inside the winner's transaction: the sequence advances only for a document that is recorded and sent.
      const controlNumber = await takeControlNumber(tx, '837P');
      const transactionControlNumber = String(controlNumber).padStart(4, '0');
      const document = build(professionalClaim, {
        controlNumber,
        transactionControlNumber,
        parties,
        now,
        batchId: claim.id,
        submitterEmail,
      });
      const transmission = await tx.claimTransmission.create({
        data: {
          clinicId,
          claimId: claim.id,
          direction: 'out',
          kind: '837P',
          controlNumber: String(controlNumber),
          x12: document,
          correlationId,
          at: now,
        },
      });
      const row = await tx.claimSend.create({
        data: {
          clinicId,
          claimId: claim.id,
          transmissionId: transmission.id,
          submissionId,
          interchangeControlNumber: String(controlNumber),
          state: 'sending',
          userId: input.userId,
          orgId: input.orgId,
          correlationId,
        },
      });
      return { send: { ...row, transactionControlNumber }, x12: document };
    }));
  } catch (error) {
    if (isUniqueViolation(error)) throw keyReused(error);
    if (isAppError(error) && error.code === 'UNPROCESSABLE')
      await assertKeyUnused(deps, clinicId, purpose, idempotencyKey);
    throw error;
  }

  // The send, outside any transaction (DECISIONS "Recurring work"): a slow clearinghouse holds no connection.
  let acks: ClaimAcknowledgments | null;
  try {
    acks = await clearinghouse.submitClaim(x12, { correlationId, submissionId });
  } catch (error) {
    // The 837P certainly did not reach the clearinghouse: the claim is a draft again and the key unused (DECISIONS
    // "Claims out": 502 and the claim as it was); the attempted 837P stays on the transmissions.
    await returnToDraft(deps, send, purpose, idempotencyKey);
    throw error;
  }
  if (acks === null) {
    // It may have (a timeout or a 5xx after the 837P left): never sent twice (DECISIONS "Security findings of
    // 2026-11-28"). The claim stays `sending`; finishInterruptedSends asks for the answer, else a person decides.
    await recordUnconfirmedSend(deps, send);
    throw new AppError('TRANSPORT_FAILED', UNCONFIRMED_REASON);
  }

  const outcome = await recordClaimAnswer({ db, clock: deps.clock, mode: clearinghouse.mode }, send, acks);
  if (outcome === 'unreadable') throw new AppError('TRANSPORT_FAILED', UNREADABLE_REASON);
  return { ...(await toClaimViewOf(db, clinicId, await readSentClaim(db, claim.id))), correlationId };
}

/** The 837P for the claim under the given control numbers. @throws UNPROCESSABLE for a value the builder refuses. */
function build(
  professionalClaim: ProfessionalClaim,
  envelope: {
    controlNumber: number;
    transactionControlNumber: string;
    parties: ClearinghouseParties;
    now: Date;
    batchId: string;
    submitterEmail: string;
  },
): string {
  const { parties, controlNumber } = envelope;
  try {
    return build837p({
      interchangeControlNumber: controlNumber,
      groupControlNumber: controlNumber,
      transactionControlNumber: envelope.transactionControlNumber,
      senderId: parties.senderId,
      receiverId: parties.receiverId,
      usageIndicator: parties.usageIndicator,
      createdAt: envelope.now,
      batchId: envelope.batchId,
      submitter: {
        id: parties.senderId,
        name: professionalClaim.billingProvider.name,
        contactName: professionalClaim.billingProvider.name,
        // The operator's EDI phone when set, else the submitting user's email (real, reachable, never invented).
        ...(parties.contactPhone ? { phone: parties.contactPhone } : { email: envelope.submitterEmail }),
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
}

/** A send the clearinghouse never received: back to draft, the key free again, the attempt on the timeline. */
async function returnToDraft(
  deps: Pick<Deps, 'db' | 'clock'>,
  send: RecordedSend,
  purpose: string,
  idempotencyKey: string | null,
) {
  const now = deps.clock();
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.claimSend.updateMany({
      where: { id: send.id, state: 'sending' },
      data: { state: 'not_delivered', stateReason: 'The clearinghouse could not be reached', finishedAt: now },
    });
    if (count === 0) return;
    if (idempotencyKey !== null)
      await tx.idempotencyKey.deleteMany({
        where: { clinicId: send.clinicId, purpose, key: idempotencyKey },
      });
    await transitionClaim(tx, {
      clinicId: send.clinicId,
      claimId: send.claimId,
      from: 'sending',
      to: 'draft',
      kind: 'send-failed',
      correlationId: send.correlationId,
      at: now,
      set: { payerId: null, payerName: null, memberId: null, idempotencyKey: null },
    });
  });
}

function keyReused(cause?: unknown): AppError {
  return new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was already used; nothing was created', {
    cause,
  });
}

/** @throws IDEMPOTENCY_KEY_REUSED (409) when the clinic already used the key to submit. */
export async function assertKeyUnused(
  deps: Pick<Deps, 'db'>,
  clinicId: string,
  purpose: string,
  key: string | null,
): Promise<void> {
  if (key === null) return;
  const used = await deps.db.idempotencyKey.findUnique({
    where: { clinicId_purpose_key: { clinicId, purpose, key } },
    select: { id: true },
  });
  if (used) throw keyReused();
}

/** The claim as it will be sent: the stored draft, or a new one from the body. */
async function claimToSubmit(
  deps: Pick<Deps, 'db'>,
  input: SubmitInput,
  prepared: PreparedClaim | undefined,
): Promise<{ claim: ClaimRecord & { status: string }; patientId: string; isNew: boolean }> {
  if (prepared) return { claim: { ...prepared, status: 'draft' }, patientId: prepared.patientId, isNew: true };
  if (input.claimId !== undefined) {
    const claim = await getClinicClaim(deps.db, input.clinicId, input.claimId);
    if (claim.status === 'sending') throw new AppError('UNPROCESSABLE', BEING_SENT);
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
  prepared: PreparedClaim | undefined,
  now: Date,
): Promise<void> {
  await tx.claim.create({
    data: {
      id: claim.id,
      createdAt: now,
      clinicId: input.clinicId,
      patientId,
      status: 'draft',
      totalChargeCents: claim.totalChargeCents,
      serviceDate: claim.serviceDate,
      placeOfService: claim.placeOfService,
      diagnoses: claim.diagnoses,
      renderingNpi: claim.renderingNpi,
      correlationId: input.correlationId,
      ...(prepared && {
        frequency: prepared.frequency,
        replacesClaimId: prepared.replacesClaimId,
        payerRank: prepared.payerRank,
        primaryClaimId: prepared.primaryClaimId,
      }),
    },
  });
  await tx.claimLine.createMany({
    data: claim.lines.map((line, i) => ({
      claimId: claim.id,
      clinicId: input.clinicId,
      position: i + 1,
      procedureCode: line.procedureCode,
      modifiers: line.modifiers,
      diagnosisPointers: line.diagnosisPointers,
      units: line.units,
      chargeCents: line.chargeCents,
      serviceDate: line.serviceDate,
    })),
  });
  await recordClaimEvent(tx, {
    clinicId: input.clinicId,
    claimId: claim.id,
    kind: 'created',
    toStatus: 'draft',
    detail: { ...prepared?.event, by: input.userId },
    correlationId: input.correlationId,
    at: now,
  });
}
