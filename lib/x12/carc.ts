// Claim Adjustment Reason Codes (CAS02/05/08..., code source 139): the subset a clinic meets most, for the words
// beside a code on remittance and denial screens. Other codes are kept as sent and described as unknown.
// Source: X12 "Claim Adjustment Reason Codes" (https://x12.org/codes/claim-adjustment-reason-codes), descriptions
// without their "Usage:" notes, transcribed 2026-11-23 from a public copy of that list (not from x12.org itself:
// compare there before a release). None of these codes is deactivated.

const CARC_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '1': 'Deductible Amount',
  '2': 'Coinsurance Amount',
  '3': 'Co-payment Amount',
  '4': 'The procedure code is inconsistent with the modifier used.',
  '5': 'The procedure code/type of bill is inconsistent with the place of service.',
  '6': "The procedure/revenue code is inconsistent with the patient's age.",
  '11': 'The diagnosis is inconsistent with the procedure.',
  '15': 'The authorization number is missing, invalid, or does not apply to the billed services or provider.',
  '16': 'Claim/service lacks information or has submission/billing error(s).',
  '18': "Exact duplicate claim/service (Use only with Group Code OA except where state workers' compensation regulations requires CO)",
  '22': 'This care may be covered by another payer per coordination of benefits.',
  '23': 'The impact of prior payer(s) adjudication including payments and/or adjustments. (Use only with Group Code OA)',
  '24': 'Charges are covered under a capitation agreement/managed care plan.',
  '26': 'Expenses incurred prior to coverage.',
  '27': 'Expenses incurred after coverage terminated.',
  '29': 'The time limit for filing has expired.',
  '31': 'Patient cannot be identified as our insured.',
  '45': 'Charge exceeds fee schedule/maximum allowable or contracted/legislated fee arrangement.',
  '50': "These are non-covered services because this is not deemed a 'medical necessity' by the payer.",
  '59': 'Processed based on multiple or concurrent procedure rules. (For example multiple surgery or diagnostic imaging, concurrent anesthesia.)',
  '96': 'Non-covered charge(s).',
  '97': 'The benefit for this service is included in the payment/allowance for another service/procedure that has already been adjudicated.',
  '109':
    'Claim/service not covered by this payer/contractor. You must send the claim/service to the correct payer/contractor.',
  '119': 'Benefit maximum for this time period or occurrence has been reached.',
  '151':
    'Payment adjusted because the payer deems the information submitted does not support this many/frequency of services.',
  '167': 'This (these) diagnosis(es) is (are) not covered.',
  '170': 'Payment is denied when performed/billed by this type of provider.',
  '181': 'Procedure code was invalid on the date of service.',
  '185': 'The rendering provider is not eligible to perform the service billed.',
  '197': 'Precertification/authorization/notification/pre-treatment absent.',
  '204': "This service/equipment/drug is not covered under the patient's current benefit plan",
  '226':
    'Information requested from the Billing/Rendering Provider was not provided or not provided timely or was insufficient/incomplete.',
  '234': 'This procedure is not paid separately.',
  '236':
    'This procedure or procedure/modifier combination is not compatible with another procedure or procedure/modifier combination provided on the same day according to the National Correct Coding Initiative or workers compensation state regulations/ fee schedule requirements.',
  '242': 'Services not provided by network/primary care providers.',
  '243': 'Services not authorized by network/primary care providers.',
  '252': 'An attachment/other documentation is required to adjudicate this claim/service.',
  '253': 'Sequestration - reduction in federal payment',
};

/** The published description of a CARC, or "unknown code" for one outside the subset (it is still kept as sent). */
export function describeCarc(code: string): string {
  return Object.hasOwn(CARC_DESCRIPTIONS, code) ? CARC_DESCRIPTIONS[code]! : 'unknown code';
}
