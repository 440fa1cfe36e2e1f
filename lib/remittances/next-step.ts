// What a biller does about a denial, in words, by its reason codes (CARC): the first code with advice wins. The
// advice is the usual practice for each code family; a clinic's own policy may differ (and say so in the appeal).
const ADVICE: readonly [readonly string[], string][] = [
  [
    ['16', '252', '226', '4', '5', '6', '11', '181', '185'],
    'Correct the missing or invalid information and send a corrected claim.',
  ],
  [['197', '15', '243'], 'Obtain the authorization (or its number) and appeal with it attached.'],
  [['50', '151', '167'], 'Appeal with the medical records that show the service was medically necessary.'],
  [['29'], 'Appeal only with proof that the claim was filed on time; otherwise write the balance off.'],
  [['18'], 'Duplicate: check that the original claim was paid; no appeal is needed if it was.'],
  [['22', '109', '31', '26', '27', '242'], "Verify the patient's coverage and bill the correct payer."],
  [['96', '204', '119'], 'Not covered: bill the patient if they agreed in writing beforehand, otherwise write it off.'],
  [
    ['97', '234', '236', '59'],
    'Bundled: review the coding and modifiers; appeal if the service is separately payable.',
  ],
];

const DEFAULT_ADVICE = "Review the payer's reason, then appeal or correct and resend the claim.";

export function nextStepFor(reasons: readonly string[]): string {
  for (const reason of reasons) {
    const found = ADVICE.find(([codes]) => codes.includes(reason));
    if (found) return found[1];
  }
  return DEFAULT_ADVICE;
}
