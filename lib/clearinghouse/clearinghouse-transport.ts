// The port to a claims clearinghouse: an 837P batch goes out and its acknowledgments come back (the 999, and the
// 277CA when the clearinghouse already has it); a 276 goes out in real time and the 277 comes back; the 835s
// waiting for us are retrieved in batch mode and acknowledged with our 999.
// Adapters: core-clearinghouse.ts (live CAQH CORE Connectivity) and sandbox-clearinghouse.ts (demo answers, never
// in production). Choosing between them is lib/deps.ts's job; reading the X12 is the caller's.

export type ClearinghouseMode = 'live' | 'sandbox';

/** Who we are to the clearinghouse and who it is, for the 837P's and 276's envelopes and 1000A/1000B loops. */
export type ClearinghouseParties = {
  /** ISA06/GS02 and the 1000A submitter id (NM109). */
  senderId: string;
  /** ISA08/GS03 and the 1000B receiver id. */
  receiverId: string;
  receiverName: string;
  /** 1000A PER04: the EDI contact's telephone, 10 digits; absent, the submitting user's email is the contact. */
  contactPhone?: string;
  /** ISA15. */
  usageIndicator: 'P' | 'T';
};

export type ClaimAcknowledgments = {
  /**
   * The 999 for the 837P's functional group, exactly as received; null when the clearinghouse confirmed receipt
   * of the 837P but its 999 could not be had yet (the claim was sent: retrieveAcknowledgments asks later).
   */
  ack999: string | null;
  /** The 277CA, exactly as received, or null when the clearinghouse has none yet (a status refresh asks later). */
  ack277ca: string | null;
};

export interface ClearinghouseTransport {
  readonly mode: ClearinghouseMode;
  readonly parties: ClearinghouseParties;
  /**
   * Sends one 837P under `submissionId` (our key for it at the clearinghouse, recorded before the send). Resolves
   * once the clearinghouse confirmed receipt, with what it already answered; resolves null when the 837P may have
   * reached it but no receipt could be read (the answer timed out, failed or was not CORE's), so the caller keeps
   * the claim `sending` and never sends it again by itself. Throws AppError TRANSPORT_FAILED only when the 837P
   * certainly did not reach it (refused before sending, or answered with a CORE error); never retries.
   */
  submitClaim(
    x12: string,
    context: { correlationId: string; submissionId: string },
  ): Promise<ClaimAcknowledgments | null>;
  /**
   * Asks for the answers to an 837P sent earlier, by the `submissionId` it was sent under (`x12` is the stored
   * document, for a clearinghouse that keys its answers by content). Sends no claim. Resolves null when the
   * clearinghouse has nothing for that submission; throws AppError TRANSPORT_FAILED when it cannot be asked.
   */
  retrieveAcknowledgments(
    sent: { submissionId: string; x12: string },
    context: { correlationId: string },
  ): Promise<ClaimAcknowledgments | null>;
  /** Sends one real-time 276; resolves with the raw 277. Throws AppError TRANSPORT_FAILED on failure. */
  requestStatus(x12: string, context: { correlationId: string }): Promise<string>;
  /**
   * Batch results retrieval of the next 835 interchange waiting for us, exactly as received, or null when none
   * waits. Throws AppError TRANSPORT_FAILED on failure.
   */
  retrieveRemittance(context: { correlationId: string }): Promise<RetrievedRemittance | null>;
  /**
   * Sends our 999 for a retrieved 835 interchange, which tells the clearinghouse it was taken (it is not offered
   * again). Throws AppError TRANSPORT_FAILED on failure.
   */
  acknowledgeRemittance(ack999: string, context: { correlationId: string }): Promise<void>;
}

export type RetrievedRemittance = {
  /** The clearinghouse's id of the delivered file (CORE PayloadID). */
  fileId: string;
  /** The 835 interchange, byte for byte. */
  x12: string;
};
