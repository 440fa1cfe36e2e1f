// The port to a payer: an X12 270 goes out, the payer's raw 271 (or TA1/999) comes back.
// Adapters: core-transport.ts (live CAQH CORE Connectivity) and sandbox-payer.ts (demo answers, never in production).

export type PayerTransportMode = 'live' | 'sandbox';

export interface PayerTransport {
  readonly mode: PayerTransportMode;
  /** Sends one real-time 270; resolves with the raw response X12. Throws AppError TRANSPORT_FAILED on failure. */
  send(x12Request: string, context: { correlationId: string }): Promise<string>;
}
