// The shipped payer directory: maps the payer name staff type to the payer network id a 270 is routed by
// (DECISIONS.md "Payer directory"). It owns names and ids only; it does not know how to reach a payer, and an
// explicit payerId on a request always wins over it.

export type PayerDirectoryEntry = {
  payerId: string;
  /** The payer's own name, as the directory answers it. */
  name: string;
  /** Other names staff type for the same payer id. */
  aliases: readonly string[];
};

// Ids are the widely published clearinghouse payer ids (electronic payer ids for 270/837). Clearinghouses can
// differ, and a CORE endpoint may expect its own; the request's payerId overrides this table.
// Deliberately absent: bare "Anthem", "Kaiser", "Blue Cross Blue Shield", "Medicare" and "Medicaid". Each is
// several payers with different ids (by state, region or Medicare contractor), and a guess would send a
// member's 270 to the wrong plan, so those names find nothing and the caller must give a payerId.
export const PAYER_DIRECTORY: readonly PayerDirectoryEntry[] = [
  { payerId: '60054', name: 'Aetna', aliases: ['Aetna Health', 'Aetna Life Insurance Company', 'Aetna Inc'] },
  {
    payerId: '87726',
    name: 'UnitedHealthcare',
    aliases: ['United Healthcare', 'UHC', 'United Health', 'UnitedHealthcare Insurance Company'],
  },
  {
    payerId: '62308',
    name: 'Cigna',
    aliases: ['Cigna Healthcare', 'Cigna Health and Life Insurance Company', 'Connecticut General'],
  },
  { payerId: '61101', name: 'Humana', aliases: ['Humana Inc', 'Humana Health Plan'] },
  {
    payerId: '47198',
    name: 'Anthem Blue Cross (California)',
    // "Anthem Blue Cross" without "Blue Shield" is the California plan's brand.
    aliases: ['Anthem Blue Cross', 'Anthem Blue Cross of California', 'Anthem CA'],
  },
  {
    payerId: '94135',
    name: 'Kaiser Permanente Northern California',
    aliases: ['Kaiser Northern California', 'Kaiser NorCal', 'KP Northern California'],
  },
  {
    payerId: '94134',
    name: 'Kaiser Permanente Southern California',
    aliases: ['Kaiser Southern California', 'Kaiser SoCal', 'KP Southern California'],
  },
  { payerId: '94036', name: 'Blue Shield of California', aliases: ['Blue Shield California', 'Blue Shield CA'] },
  {
    payerId: '00590',
    name: 'Florida Blue',
    aliases: ['Blue Cross Blue Shield of Florida', 'BCBS Florida', 'BCBSFL'],
  },
  { payerId: '84980', name: 'Blue Cross Blue Shield of Texas', aliases: ['BCBS Texas', 'BCBSTX'] },
  { payerId: '00621', name: 'Blue Cross Blue Shield of Illinois', aliases: ['BCBS Illinois', 'BCBSIL'] },
  { payerId: '00710', name: 'Blue Cross Blue Shield of Michigan', aliases: ['BCBS Michigan', 'BCBSM'] },
  {
    payerId: '22099',
    name: 'Horizon Blue Cross Blue Shield of New Jersey',
    aliases: ['Horizon BCBS', 'Horizon BCBSNJ', 'Horizon Blue Cross Blue Shield'],
  },
  { payerId: '54704', name: 'Independence Blue Cross', aliases: ['IBX', 'Independence BC'] },
  {
    payerId: '54771',
    name: 'Highmark Blue Cross Blue Shield (Pennsylvania)',
    // Not bare "Highmark": its Delaware, West Virginia and New York plans have their own ids.
    aliases: ['Highmark Pennsylvania', 'Highmark BCBS Pennsylvania', 'Highmark BCBS PA'],
  },
  { payerId: '39026', name: 'UMR', aliases: ['UMR Wausau'] },
  { payerId: '06111', name: 'Oxford Health Plans', aliases: ['Oxford', 'UnitedHealthcare Oxford'] },
  { payerId: '04271', name: 'Harvard Pilgrim Health Care', aliases: ['Harvard Pilgrim', 'HPHC'] },
  { payerId: '29076', name: 'Medical Mutual of Ohio', aliases: ['Medical Mutual', 'MMO'] },
  { payerId: '41124', name: 'Meritain Health', aliases: ['Meritain'] },
  { payerId: '44054', name: 'GEHA', aliases: ['Government Employees Health Association'] },
  { payerId: '26375', name: 'Amerigroup', aliases: ['Amerigroup Corporation'] },
  { payerId: '14163', name: 'WellCare Health Plans', aliases: ['WellCare'] },
  // Medicaid: one id per state program.
  { payerId: '610442', name: 'Medi-Cal (California Medicaid)', aliases: ['Medi-Cal', 'California Medicaid'] },
  // Medicare Part B: one id per Medicare Administrative Contractor jurisdiction and state.
  {
    payerId: '04412',
    name: 'Medicare Part B Texas (Novitas Solutions)',
    aliases: ['Medicare Texas', 'Medicare Part B Texas', 'Novitas Texas Part B'],
  },
  {
    payerId: '09102',
    name: 'Medicare Part B Florida (First Coast Service Options)',
    aliases: ['Medicare Florida', 'Medicare Part B Florida', 'First Coast Part B'],
  },
  {
    payerId: '01112',
    name: 'Medicare Part B Northern California (Noridian)',
    aliases: ['Medicare Northern California', 'Medicare Part B Northern California'],
  },
  {
    payerId: '01182',
    name: 'Medicare Part B Southern California (Noridian)',
    aliases: ['Medicare Southern California', 'Medicare Part B Southern California'],
  },
];

// Words that never tell two payers apart ("Aetna, Inc." is "Aetna"; "Blue Cross and Blue Shield of Texas" is
// "Blue Cross Blue Shield Texas").
const NOISE_WORDS = new Set(['the', 'of', 'and', 'inc', 'incorporated', 'llc', 'corp', 'corporation', 'company', 'co']);

function normalizePayerName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replaceAll('&', ' and ')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !NOISE_WORDS.has(word))
    .join('');
}

const index: ReadonlyMap<string, PayerDirectoryEntry> = (() => {
  const byKey = new Map<string, PayerDirectoryEntry>();
  for (const entry of PAYER_DIRECTORY) {
    for (const name of [entry.name, ...entry.aliases]) {
      const key = normalizePayerName(name);
      const existing = byKey.get(key);
      // Two payers answering one name would route some 270s to the wrong plan: fail at load, not at lookup.
      if (existing !== undefined && existing !== entry) {
        throw new Error(`payer directory: "${name}" names both ${existing.payerId} and ${entry.payerId}`);
      }
      byKey.set(key, entry);
    }
  }
  return byKey;
})();

/**
 * The payer a typed name refers to, ignoring case, spacing, punctuation and corporate suffixes; aliases count.
 * Null when the name is unknown or ambiguous (see the table's note); the caller then needs an explicit payerId.
 */
export function findPayerByName(name: string): { payerId: string; name: string } | null {
  const key = normalizePayerName(name);
  if (key === '') return null;
  const entry = index.get(key);
  return entry === undefined ? null : { payerId: entry.payerId, name: entry.name };
}

/** The directory's name for a payer id, or null when the directory does not list it. */
export function findPayerName(payerId: string | null | undefined): string | null {
  return PAYER_DIRECTORY.find((entry) => entry.payerId === payerId)?.name ?? null;
}
