// Remittance Advice Remark Codes (LQ02 and MIA/MOA remarks, code source 411): the subset a clinic meets most
// beside a denial, for the words on remittance and denial screens. Other codes are described as unknown.
// Source: X12 "Remittance Advice Remark Codes" (https://x12.org/codes/remittance-advice-remark-codes), maintained
// by CMS; transcribed 2026-11-23 from public copies of that list (not from x12.org itself: compare there before a
// release). None of these codes is deactivated.

const RARC_DESCRIPTIONS: Readonly<Record<string, string>> = {
  M15: 'Separately billed services/tests have been bundled as they are considered components of the same procedure. Separate payment is not allowed.',
  M51: 'Missing/incomplete/invalid procedure code(s).',
  M76: 'Missing/incomplete/invalid diagnosis or condition.',
  M80: 'Not covered when performed during the same session/date as a previously processed service for the patient.',
  M86: 'Service denied because payment already made for same/similar procedure within set time frame.',
  MA04: 'Secondary payment cannot be considered without the identity of or payment information from the primary payer. The information was either not reported or was illegible.',
  MA130:
    'Your claim contains incomplete and/or invalid information, and no appeal rights are afforded because the claim is unprocessable. Please submit a new claim with the complete/correct information.',
  N4: 'Missing/Incomplete/Invalid prior Insurance Carrier(s) EOB.',
  N20: 'Service not payable with other service rendered on the same date.',
  N30: 'Patient ineligible for this service.',
  N56: 'Procedure code billed is not correct/valid for the services billed or the date of service billed.',
  N130: 'Consult plan benefit documents/guidelines for information about restrictions for this service.',
  N211: 'Alert: You may not appeal this decision.',
  N290: 'Missing/incomplete/invalid rendering provider primary identifier.',
  N362: 'The number of Days or Units of Service exceeds our acceptable maximum.',
  N381: 'Alert: Consult our contractual agreement for restrictions/billing/payment information related to these charges.',
  N479: 'Missing Explanation of Benefits (Coordination of Benefits or Medicare Secondary Payer).',
  N522: 'Duplicate of a claim processed, or to be processed, as a crossover claim.',
  N706: 'Missing documentation.',
};

/** The published description of a RARC, or "unknown code" for one outside the subset (it is still kept as sent). */
export function describeRarc(code: string): string {
  return Object.hasOwn(RARC_DESCRIPTIONS, code) ? RARC_DESCRIPTIONS[code]! : 'unknown code';
}
