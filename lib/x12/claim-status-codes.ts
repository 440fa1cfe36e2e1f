// Words for the health care claim status category codes (STC01-1, X12 external code list 507) and status codes
// (STC01-2, list 508) the 277CA and 277 carry most often, so a claim's timeline says "Rejected for invalid
// information" rather than "A7". Source: X12 "Health Care Claim Status Category Codes" and "Health Care Claim
// Status Codes" (https://x12.org/codes), descriptions shortened and without their "Usage:" notes, transcribed
// 2026-11-23 from public copies of those lists (not from x12.org itself: compare there before a release). A code
// not here is shown as its code.

export const CLAIM_STATUS_CATEGORY_CODES: Readonly<Record<string, string>> = {
  A0: 'Acknowledgement/Forwarded: the claim has been forwarded to another entity',
  A1: 'Acknowledgement/Receipt: the claim has been received (not yet accepted for adjudication)',
  A2: 'Acknowledgement/Acceptance into adjudication system',
  A3: 'Acknowledgement/Returned as unprocessable claim: rejected, not entered into adjudication',
  A4: 'Acknowledgement/Not found: the claim cannot be found in the adjudication system',
  A5: 'Acknowledgement/Split claim: split upon acceptance into the adjudication system',
  A6: 'Acknowledgement/Rejected for missing information',
  A7: 'Acknowledgement/Rejected for invalid information',
  A8: 'Acknowledgement/Rejected for relational field in error',
  D0: 'Data search unsuccessful: the payer cannot return status for the search criteria',
  E0: 'Response not possible: error on submitted request data',
  E1: 'Response not possible: system status',
  E2: 'Information holder is not responding; resubmit at a later time',
  F0: 'Finalized: the claim has completed the adjudication cycle',
  F1: 'Finalized/Payment: the claim/line has been paid',
  F2: 'Finalized/Denial: the claim/line has been denied',
  F3: 'Finalized/Revised: adjudication information has been changed',
  F4: 'Finalized/Adjudication complete: no payment forthcoming',
  P0: 'Pending: adjudication/details',
  P1: 'Pending/In process: the claim is in the adjudication system',
  P2: 'Pending/Payer review: suspended, pending review',
  P3: 'Pending/Provider requested information',
  P4: 'Pending/Patient requested information',
  P5: 'Pending/Payer administrative or system hold',
  R0: 'Requests for additional information/General requests',
  R1: 'Requests for additional information/Entity requests',
  R3: 'Requests for additional information/Claim or line',
  R4: 'Requests for additional information/Documentation',
};

export const CLAIM_STATUS_CODES: Readonly<Record<string, string>> = {
  '0': 'Cannot provide further status electronically.',
  '1': 'For more detailed information, see remittance advice.',
  '2': 'More detailed information in letter.',
  '3': 'Claim has been adjudicated and is awaiting payment cycle.',
  '6': 'Balance due from the subscriber.',
  '16': 'Claim/encounter has been forwarded to entity.',
  '19': 'Entity acknowledges receipt of claim/encounter.',
  '20': 'Accepted for processing.',
  '21': 'Missing or invalid information.',
  '23': 'Returned to entity.',
  '24': 'Entity not approved as an electronic submitter.',
  '26': 'Entity not found.',
  '27': 'Policy canceled.',
  '29': 'Subscriber and policy number/contract number mismatched.',
  '30': 'Subscriber and subscriber id mismatched.',
  '31': 'Subscriber and policyholder name mismatched.',
  '32': 'Subscriber and policy number/contract number not found.',
  '33': 'Subscriber and subscriber id not found.',
  '34': 'Subscriber and policyholder name not found.',
  '35': 'Claim/encounter not found.',
  '38': 'Awaiting next periodic adjudication cycle.',
  '40': 'Waiting for final approval.',
  '41': 'Special handling required at payer site.',
  '44': 'Charges pending provider audit.',
  '45': 'Awaiting benefit determination.',
  '46': 'Internal review/audit.',
  '54': 'Duplicate of a previously processed claim/line.',
  '56': 'Awaiting eligibility determination.',
  '65': 'Claim/line has been paid.',
  '78': 'Duplicate of an existing claim/line, awaiting processing.',
  '84': 'Service not authorized.',
  '85': 'Entity not primary.',
  '88': 'Entity not eligible for benefits for submitted dates of service.',
  '97': 'Patient eligibility not found with entity.',
  '101': 'Claim was processed as adjustment to previous claim.',
  '104': 'Processed according to plan provisions.',
  '107': 'Processed according to contract provisions.',
  '109': 'Entity not eligible.',
  '116': 'Claim submitted to incorrect payer.',
  '117': 'Claim requires signature-on-file indicator.',
  '125': "Entity's name.",
  '126': "Entity's address.",
  '128': "Entity's tax id.",
  '145': "Entity's specialty/taxonomy code.",
  '153': "Entity's id number.",
  '157': "Entity's gender.",
  '158': "Entity's date of birth.",
  '164': "Entity's contract/member number.",
  '187': 'Date(s) of service.',
  '562': "Entity's National Provider Identifier (NPI).",
};

/** STC01-3: whose information the status code is about (X12 entity identifier codes, the ones a 277CA names most). */
export const CLAIM_STATUS_ENTITY_CODES: Readonly<Record<string, string>> = {
  '1P': 'the provider',
  '40': 'the receiver',
  '41': 'the submitter',
  '77': 'the service location',
  '82': 'the rendering provider',
  '85': 'the billing provider',
  DN: 'the referring provider',
  IL: 'the subscriber',
  PR: 'the payer',
  QC: 'the patient',
};

/** Words for a category (STC01-1), or null when the code is not in the table. */
export function describeStatusCategory(category: string): string | null {
  return Object.hasOwn(CLAIM_STATUS_CATEGORY_CODES, category) ? CLAIM_STATUS_CATEGORY_CODES[category]! : null;
}

/** Words for a status code (STC01-2), or null when the code is not in the table. */
export function describeStatusCode(code: string): string | null {
  return Object.hasOwn(CLAIM_STATUS_CODES, code) ? CLAIM_STATUS_CODES[code]! : null;
}

/** Words for an entity code (STC01-3), or null when the code is not in the table. */
export function describeStatusEntity(code: string): string | null {
  return Object.hasOwn(CLAIM_STATUS_ENTITY_CODES, code) ? CLAIM_STATUS_ENTITY_CODES[code]! : null;
}
