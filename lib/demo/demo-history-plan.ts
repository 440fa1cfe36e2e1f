// The demo history's script (DECISIONS "Staff app, second round"): which patients it has and which visits each
// made over the 90 days before the first start, chosen by a seeded PRNG so every fresh demo tells the same story
// relative to its start date. Pure: the seed (seed-demo-history.ts) plays it through the product's own paths.
import { addDays } from '../dashboard/dashboard-period';
import { seededRandom } from '../seeded-random';

/** The history's own patients: `pat_n_101`… and `pat_s_101`…, never the ruled `_001`..`_010`. */
export const HISTORY_CLINICS = [
  { clinicId: 'clinic_north', prefix: 'n', tag: 'N', patients: 20, userId: 'user_billing_north', poolId: 'pool_n_101' },
  { clinicId: 'clinic_south', prefix: 's', tag: 'S', patients: 10, userId: 'user_admin_south', poolId: 'pool_s_101' },
] as const;
export type HistoryClinic = (typeof HISTORY_CLINICS)[number];

const FIRST_NAMES = ['Rowan', 'Sage', 'Tatum', 'Quinn', 'Reese', 'Parker', 'Oakley', 'Marlow', 'Lennox', 'Kai'];
const LAST_NAMES = ['Alder', 'Birch', 'Cedar', 'Dogwood', 'Elm', 'Fir', 'Hazel', 'Juniper', 'Linden', 'Maple'];
const DIAGNOSES = ['E11.9', 'I10', 'J06.9', 'Z00.00', 'R05.9', 'M54.50'];
/** Office visits by level, with what the clinic charges for each. */
const VISITS = [
  { procedureCode: '99213', chargeCents: 15_000 },
  { procedureCode: '99214', chargeCents: 22_000 },
];
const VENIPUNCTURE = { procedureCode: '36415', chargeCents: 2_500 };

/** The sandbox clearinghouse's scenario a member id chooses (lib/claims/sandbox-clearinghouse/answer-claim.ts). */
type HistoryStory = 'paid' | 'denied' | 'rejected';

type HistoryPatient = {
  id: string;
  clinicId: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  memberId: string;
  story: HistoryStory;
};

export type HistoryVisit = {
  patient: HistoryPatient;
  /** Days before the start date (the clinic's today) the visit took place. */
  daysAgo: number;
  diagnoses: string[];
  lines: { procedureCode: string; diagnosisPointers: number[]; units: number; chargeCents: number }[];
  /** The payer never answers this one (left accepted and open, so the aging has older buckets). */
  payerSlow: boolean;
};

const historyPatientId = (prefix: string, n: number) => `pat_${prefix}_${100 + n}`;

/** Every 6th patient's payer denies (CO-50); the 4th is rejected at the front end (277CA); the rest are paid. */
function storyOf(n: number): HistoryStory {
  if (n === 4) return 'rejected';
  return n % 6 === 0 ? 'denied' : 'paid';
}

const MEMBER_PREFIX: Record<HistoryStory, string> = {
  paid: 'DEMO-ACTIVE',
  denied: 'DEMO-CH-DENY',
  rejected: 'DEMO-CH-REJECT',
};

export function historyPatients(clinic: HistoryClinic): HistoryPatient[] {
  return Array.from({ length: clinic.patients }, (_, i) => {
    const n = i + 1;
    const story = storyOf(n);
    return {
      id: historyPatientId(clinic.prefix, n),
      clinicId: clinic.clinicId,
      firstName: FIRST_NAMES[i % FIRST_NAMES.length]!,
      lastName: `${LAST_NAMES[Math.floor(i / 2) % LAST_NAMES.length]!}${100 + n}`,
      birthDate: `19${50 + ((n * 7) % 45)}-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 27) + 1).padStart(2, '0')}`,
      memberId: `${MEMBER_PREFIX[story]}-${clinic.tag}${100 + n}`,
      story,
    };
  });
}

/**
 * Two or three weekday visits per patient, at least a week apart, between 3 and 88 days before `today` (the
 * clinic's date at the first start), ordered oldest first so the story is played in time order.
 */
export function historyVisits(clinic: HistoryClinic, today: string): HistoryVisit[] {
  const random = seededRandom(clinic.prefix === 'n' ? 101 : 202);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const visits: HistoryVisit[] = [];
  for (const patient of historyPatients(clinic)) {
    const count = 2 + Math.floor(random() * 2);
    const taken: number[] = [];
    while (taken.length < count) {
      let daysAgo = 3 + Math.floor(random() * 86);
      // A clinic sees patients on weekdays: move a weekend visit to the Friday before.
      while (isWeekend(addDays(today, -daysAgo))) daysAgo++;
      if (daysAgo > 88 || taken.some((d) => Math.abs(d - daysAgo) < 7)) continue;
      taken.push(daysAgo);
      const diagnoses = [pick(DIAGNOSES)];
      const lines = [{ ...pick(VISITS), diagnosisPointers: [1], units: 1 }];
      if (random() < 0.3) lines.push({ ...VENIPUNCTURE, diagnosisPointers: [1], units: 1 });
      visits.push({ patient, daysAgo, diagnoses, lines, payerSlow: false });
    }
  }
  // One visit in eight, spread evenly over the 90 days, has a slow payer: open balances in every aging bucket.
  return visits
    .sort((a, b) => b.daysAgo - a.daysAgo || a.patient.id.localeCompare(b.patient.id))
    .map((visit, i) => ({ ...visit, payerSlow: i % 8 === 3 }));
}

function isWeekend(date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday === 0 || weekday === 6;
}
