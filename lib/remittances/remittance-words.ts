// Words beside 835 codes on the remittance and denial screens: CLP02 claim status codes and PLB03-1 provider
// adjustment reason codes, from the 005010X221A1 TR3 code lists (transcribed 2026-11-23; the TR3 is the source).
const CLAIM_STATUS_TEXT: Readonly<Record<string, string>> = {
  '1': 'Processed as primary',
  '2': 'Processed as secondary',
  '3': 'Processed as tertiary',
  '4': 'Denied',
  '19': 'Processed as primary, forwarded to additional payer(s)',
  '20': 'Processed as secondary, forwarded to additional payer(s)',
  '21': 'Processed as tertiary, forwarded to additional payer(s)',
  '22': 'Reversal of previous payment',
  '23': 'Not our claim, forwarded to additional payer(s)',
  '25': 'Predetermination pricing only, no payment',
};

const PLB_REASON_TEXT: Readonly<Record<string, string>> = {
  '50': 'Late charge',
  '51': 'Interest penalty charge',
  '72': 'Authorized return',
  '90': 'Early payment allowance',
  AH: 'Origination fee',
  AM: 'Applied to borrower’s account',
  AP: 'Acceleration of benefits',
  B2: 'Rebate',
  B3: 'Recovery allowance',
  BD: 'Bad debt adjustment',
  BN: 'Bonus',
  C5: 'Temporary allowance',
  CR: 'Capitation interest',
  CS: 'Adjustment',
  CT: 'Capitation payment',
  CV: 'Capital passthru',
  CW: 'Certified registered nurse anesthetist passthru',
  DM: 'Direct medical education passthru',
  E3: 'Withholding',
  FB: 'Forwarding balance',
  FC: 'Fund allocation',
  GO: 'Graduate medical education passthru',
  HM: 'Hemophilia clotting factor supplement',
  IP: 'Incentive premium payment',
  IR: 'Internal Revenue Service withholding',
  IS: 'Interim settlement',
  J1: 'Nonreimbursable',
  L3: 'Penalty',
  L6: 'Interest owed',
  LE: 'Levy',
  LS: 'Lump sum',
  OA: 'Organ acquisition passthru',
  OB: 'Offset for affiliated providers',
  PI: 'Periodic interim payment',
  PL: 'Payment final',
  RA: 'Retro-activity adjustment',
  RE: 'Return on equity',
  SL: 'Student loan repayment',
  TL: 'Third party liability',
  WO: 'Overpayment recovery',
  WU: 'Unspecified recovery',
};

export const describeClaimStatus = (code: string) =>
  Object.hasOwn(CLAIM_STATUS_TEXT, code) ? CLAIM_STATUS_TEXT[code]! : 'unknown status code';

export const describeProviderAdjustment = (code: string) =>
  Object.hasOwn(PLB_REASON_TEXT, code) ? PLB_REASON_TEXT[code]! : 'unknown code';
