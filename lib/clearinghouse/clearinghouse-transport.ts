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
  /** The 999 for the 837P's functional group, exactly as received. */
  ack999: string;
  /** The 277CA, exactly as received, or null when the clearinghouse has none yet (a status refresh asks later). */
  ack277ca: string | null;
};

export interface ClearinghouseTransport {
  readonly mode: ClearinghouseMode;
  readonly parties: ClearinghouseParties;
  /** Sends one 837P. Throws AppError TRANSPORT_FAILED when it cannot be sent or no 999 comes back; never retries. */
  submitClaim(x12: string, context: { correlationId: string }): Promise<ClaimAcknowledgments>;
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
