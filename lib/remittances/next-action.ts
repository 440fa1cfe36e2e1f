// What a biller does next about a denied or partially paid claim (DECISIONS "Claim lifecycle"), as data: a table
// of reason code (CARC) → action with the reason in words, and the order in which actions win. Pure: the caller
// reads the codes of the claim's latest remittance, its amounts and whether a secondary coverage is on file.

export const NEXT_ACTIONS = [
  'write_off',
  'correct_and_resubmit',
  'appeal',
  'bill_secondary',
  'bill_patient',
  'none',
] as const;
export type NextAction = (typeof NEXT_ACTIONS)[number];

type CodeRule = { action: NextAction; codes: readonly string[]; reason: string };

/**
 * The codes the ruling names, grouped by what they mean. The words are the usual practice for each code family;
 * a clinic's own policy may differ. Order within the table does not matter: NEXT_ACTIONS decides which wins.
 */
export const CODE_RULES: readonly CodeRule[] = [
  {
    action: 'write_off',
    codes: ['29'],
    reason: 'The time limit for filing has expired; unless you can prove timely filing, write the balance off.',
  },
  {
    action: 'write_off',
    codes: ['119'],
    reason: "The patient's benefit maximum for the period has been reached; write the balance off.",
  },
  {
    action: 'correct_and_resubmit',
    codes: ['4', '5', '6', '7', '8', '9', '10', '11'],
    reason:
      "The procedure, modifier or diagnosis does not agree with the service or the patient's age or sex; correct " +
      'the coding and send a corrected claim.',
  },
  {
    action: 'correct_and_resubmit',
    codes: ['16', '125'],
    reason: 'The claim lacks information or has a billing error; add or fix what the remarks name and send it again.',
  },
  {
    action: 'correct_and_resubmit',
    codes: ['146', '181', '182'],
    reason:
      'A diagnosis, procedure code or modifier was invalid on the date of service; correct it and send a corrected ' +
      'claim.',
  },
  {
    action: 'appeal',
    codes: ['50', '56', '150', '151'],
    reason:
      'The payer judged the service not medically necessary, not proven or beyond the level or frequency it ' +
      'pays; appeal with the medical records.',
  },
  {
    action: 'appeal',
    codes: ['96'],
    reason: 'The payer calls the service not covered; appeal if the plan covers it, with the plan language.',
  },
  {
    action: 'appeal',
    codes: ['197', '15'],
    reason: 'The authorization was missing or invalid; obtain it (or its number) and appeal with it attached.',
  },
  {
    action: 'none',
    codes: ['18'],
    reason: 'Duplicate of a claim the payer already processed; check that the original was paid, nothing to send.',
  },
];

const RULE_FOR_CODE: ReadonlyMap<string, CodeRule> = new Map(
  CODE_RULES.flatMap((rule) => rule.codes.map((code) => [code, rule] as const)),
);

export type NextActionInput = {
  /** CARC reason codes of the latest remittance, outside the patient's share (group PR), claim and line level. */
  reasonCodes: readonly string[];
  /** RARC remark codes (M, MA, N) the remittance put on a service line: the line needs correcting. */
  lineRemarkCodes: readonly string[];
  /** What the claim still has open with this payer (the claim view's balanceCents). */
  balanceCents: number;
  /** What the payer moved to the patient (CAS PR). */
  patientResponsibilityCents: number;
  hasSecondaryCoverage: boolean;
};

export type NextActionAdvice = { nextAction: NextAction; nextActionReason: string };

/** The first rule that matches, in NEXT_ACTIONS order, wins. */
export function nextActionFor(input: NextActionInput): NextActionAdvice {
  const coded = (action: NextAction): NextActionAdvice | null => {
    for (const code of input.reasonCodes) {
      const rule = RULE_FOR_CODE.get(code);
      if (rule?.action === action) return { nextAction: action, nextActionReason: `${rule.reason} (CARC ${code})` };
    }
    return null;
  };
  const [firstRemark] = input.lineRemarkCodes;
  const owedCents = input.balanceCents + input.patientResponsibilityCents;
  return (
    coded('write_off') ??
    coded('correct_and_resubmit') ??
    (firstRemark
      ? {
          nextAction: 'correct_and_resubmit',
          nextActionReason: `The payer flagged a service line; fix what the remark names and send a corrected claim (RARC ${firstRemark}).`,
        }
      : null) ??
    coded('appeal') ??
    (input.hasSecondaryCoverage && owedCents > 0
      ? {
          nextAction: 'bill_secondary',
          nextActionReason:
            'The primary payer left a balance and the patient has a secondary coverage on file; bill the secondary payer.',
        }
      : null) ??
    (input.patientResponsibilityCents > 0 && !input.hasSecondaryCoverage
      ? {
          nextAction: 'bill_patient',
          nextActionReason:
            "The payer left the patient's share (deductible, coinsurance or copay); send the patient a statement.",
        }
      : null) ??
    coded('none') ??
    (owedCents <= 0
      ? { nextAction: 'none', nextActionReason: 'Nothing is owed on this claim.' }
      : {
          nextAction: 'none',
          nextActionReason: "No rule matches the payer's codes; read the payer's reason and decide by hand.",
        })
  );
}
