// The one error lib/x12 throws for input that is not a readable answer. It does not decide HTTP status:
// callers map it (a payer error gives eligibility status "unknown", the CLI exits 2).

/** ta1: interchange rejected (TA1); 999: functional acknowledgment instead of a 271; unreadable: anything else. */
export type X12ReadErrorKind = 'ta1' | '999' | 'unreadable';

export class X12ReadError extends Error {
  constructor(
    readonly kind: X12ReadErrorKind,
    /** One line, safe to log: never contains member data. */
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'X12ReadError';
  }
}
