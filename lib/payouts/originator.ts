// The platform as the ACH originator: its bank (the ODFI, also the file's immediate destination) and its company
// identification. Fixed here until the bank relationship's values come from configuration (BANK_* is out of
// scope for issue #24); a real bank assigns them when the origination agreement is signed.
export const ORIGINATOR = {
  odfiRoutingNumber: '021000021',
  destinationName: 'ODFI BANK',
  immediateOrigin: '1123456789',
  originName: 'SVC REVENUE PLATFORM',
  companyName: 'SVC PAYOUTS',
  companyId: '1123456789',
  companyEntryDescription: 'PAYOUT',
  /** The zone whose calendar dates the file's creation and effective dates: the Fed's. */
  timeZone: 'America/New_York',
} as const;

/** Entries per batch, the prenote included: a bound on one file's size (trace numbers: allocate-file-numbers.ts). */
export const MAX_BATCH_ENTRIES = 999;
