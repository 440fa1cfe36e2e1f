// The sandbox clearinghouse: answers each 837P with the real 999 and 277CA that lib/claims/sandbox-clearinghouse
// chooses by the member id, and each 276 with a real 277 from the claim's state as the platform knows it. It never
// runs in production (lib/deps.ts chooses it only in sandbox mode). The payer's later 835 is not the transport's
// business: lib/claims/sandbox-remittance.ts sends it through the remittance ingest.
import type { Clock } from '@/lib/clock';
import type { Db } from '@/lib/db';
import { AppError } from '@/lib/errors';
import { answerClaim } from '@/lib/claims/sandbox-clearinghouse/answer-claim';
import { answerStatus, type KnownClaimState } from '@/lib/claims/sandbox-clearinghouse/answer-status';
import { read276 } from '@/lib/x12/read-276';
import { read837p } from '@/lib/x12/read-837p';
import type { ClearinghouseParties, ClearinghouseTransport } from './clearinghouse-transport';

export const SANDBOX_PARTIES: ClearinghouseParties = {
  senderId: 'SVCSANDBOX',
  receiverId: 'SANDBOXCH',
  receiverName: 'SANDBOX CLEARINGHOUSE',
  // 555-01xx numbers are reserved for fiction.
  contactPhone: '5555550100',
  usageIndicator: 'T',
};

/**
 * `db` is read only by requestStatus (the sandbox payer's memory is the platform's own claim). The sandbox's
 * answers are a pure function of the 837P, so retrieving the answers of an earlier send is answering it again:
 * nothing is "sent" twice, as nothing leaves the process.
 */
export function sandboxClearinghouse(deps: { clock: Clock; db: Db }): ClearinghouseTransport {
  const answer837p = async (x12: string) => {
    try {
      // The sandbox numbers its answers after the interchange it answers: one 999 and one 277CA per 837P.
      const controlNumber = read837p(x12).interchangeControlNumber;
      const answer = answerClaim({
        x12,
        now: deps.clock(),
        controlNumbers: { ack999: controlNumber, ack277ca: controlNumber },
      });
      return { ack999: answer.ack999, ack277ca: answer.ack277ca };
    } catch (cause) {
      throw new AppError('TRANSPORT_FAILED', 'The sandbox clearinghouse could not read the claim', { cause });
    }
  };
  return {
    mode: 'sandbox',
    parties: SANDBOX_PARTIES,
    submitClaim: (x12) => answer837p(x12),
    retrieveAcknowledgments: ({ x12 }) => answer837p(x12),
    async requestStatus(x12) {
      let request: ReturnType<typeof read276>;
      try {
        request = read276(x12);
      } catch (cause) {
        throw new AppError('TRANSPORT_FAILED', 'The sandbox clearinghouse could not read the status request', {
          cause,
        });
      }
      const claim = await findKnownClaim(deps.db, request.claim.claimId);
      return answerStatus({ x12, now: deps.clock(), controlNumber: request.interchangeControlNumber, claim });
    },
    // The sandbox payer's 835s are not waiting to be retrieved: lib/claims/sandbox-remittance.ts ingests them.
    async retrieveRemittance() {
      return null;
    },
    async acknowledgeRemittance() {},
  };
}

/** What the sandbox payer knows: a claim that was sent (a draft never reached it). */
async function findKnownClaim(db: Db, claimId: string): Promise<KnownClaimState | null> {
  const claim = await db.claim.findUnique({
    where: { id: claimId },
    select: { status: true, totalChargeCents: true, paidCents: true, statusReason: true, updatedAt: true },
  });
  if (!claim || claim.status === 'draft') return null;
  return {
    status: claim.status,
    chargeCents: Number(claim.totalChargeCents),
    paidCents: Number(claim.paidCents),
    statusDate: claim.updatedAt.toISOString().slice(0, 10),
    ...(claim.statusReason ? { reason: claim.statusReason } : {}),
  };
}
