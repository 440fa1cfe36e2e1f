// The sandbox clearinghouse's answer to an 837P: a real 999 and 277CA, and for an accepted claim the 835 its payer
// sends later, chosen by the subscriber's member id (DECISIONS "Claims out"): DEMO-CH-REJECT… is accepted by the
// 999 and rejected by the 277CA; DEMO-CH-ERRORS… gets a 999 E (accepted with errors) and an accepted 277CA;
// DEMO-CH-DENY… is accepted and its remittance denies it (CO-50); anything else is accepted and paid less a
// contractual adjustment. Pure: the clock and control numbers come in, so the same input gives the same bytes.

/** Which story the sandbox tells for a claim. */
export type SandboxScenario = 'accepted' | 'accepted-with-errors' | 'rejected' | 'deny-later';

export type AnswerClaimInput = {
  /** The 837P exactly as sent (build-837p.ts's shape). */
  x12: string;
  /** When the clearinghouse answers: stamped on the 999 and 277CA envelopes and as their dates. */
  now: Date;
  /** ISA13/GS06 of the 999 and of the 277CA, 1..999999999 each (the caller's sequence). */
  controlNumbers: { ack999: number; ack277ca: number };
};

export type SandboxClaimAnswer = {
  scenario: SandboxScenario;
  /** 005010X231A1 999 for the 837P's functional group. */
  ack999: string;
  /** 005010X214 277CA for the claim. */
  ack277ca: string;
  /**
   * The payer's 835 for the claim (absent when rejected): paid less a contractual adjustment, or denied with
   * CO-50. Deterministic: its TRN02 trace and control numbers derive from the claim id, so a re-run writes the
   * same bytes and posting it twice posts once. `paymentDate` is YYYY-MM-DD.
   */
  remittance835?: (paymentDate: string) => string;
};

/** Member id prefixes that choose a scenario; any other member id is 'accepted'. */
export const SANDBOX_SCENARIO_PREFIXES: readonly (readonly [prefix: string, scenario: SandboxScenario])[] = [
  ['DEMO-CH-REJECT', 'rejected'],
  ['DEMO-CH-ERRORS', 'accepted-with-errors'],
  ['DEMO-CH-DENY', 'deny-later'],
];

/** The scenario for a subscriber member id (compared as written, case included). */
export function scenarioFor(memberId: string): SandboxScenario {
  for (const [prefix, scenario] of SANDBOX_SCENARIO_PREFIXES) if (memberId.startsWith(prefix)) return scenario;
  return 'accepted';
}

/** Throws X12ReadError when the text is not an 837P of build-837p.ts's shape (the caller treats it as a failure). */
export function answerClaim(input: AnswerClaimInput): SandboxClaimAnswer {
  void input;
  throw new Error('not implemented');
}
