// Office copays (EB01 B on an office service type) in integer cents, told apart by the free text of the row's
// MSG segments: specialist or primary care. One unlabelled office copay is the primary care one.
import { compareRows, type BenefitRow } from './benefit-row';
import { element } from '../element';
import type { Sourced } from './sourced';

const PRIMARY_WORDS = ['PRIMARY', 'PCP', 'PRIME CARE'];
const SPECIALIST_WORDS = ['SPECIALIST', 'SPEC OFFICE', 'SPEC VISIT', 'SPC'];
// Each list as one pattern of its words (letters and spaces only, so nothing to escape): one native search of a
// message rather than a String#includes per word (bench x12-read).
const PRIMARY = new RegExp(PRIMARY_WORDS.join('|'));
const SPECIALIST = new RegExp(SPECIALIST_WORDS.join('|'));

type Copays = { specialist: Sourced<number | null>; primaryCare: Sourced<number | null> };

/** Each copay's evidence is its EB with the MSGs that labelled it. */
export function readCopays(feeding: readonly BenefitRow[]): Copays {
  let specialist: BenefitRow | null = null;
  let primary: BenefitRow | null = null;
  const unlabelled: BenefitRow[] = [];
  for (const row of feeding) {
    if (row.eb01 !== 'B' || !row.hasOfficeType) continue;
    let isSpecialist = false;
    let isPrimary = false;
    for (const message of row.benefit.msg) {
      const text = element(message, 1).toUpperCase();
      isSpecialist ||= SPECIALIST.test(text);
      isPrimary ||= PRIMARY.test(text);
    }
    if (!isSpecialist && !isPrimary) unlabelled.push(row);
    if (row.amount === null) continue;
    if (isSpecialist && (!specialist || compareRows(row, specialist) < 0)) specialist = row;
    if (isPrimary && (!primary || compareRows(row, primary) < 0)) primary = row;
  }
  // A payer that sends one office copay without saying whose it is means the ordinary office visit.
  const onlyUnlabelled = unlabelled.length === 1 && unlabelled[0]!.amount !== null ? unlabelled[0]! : null;
  return { specialist: copayOf(specialist), primaryCare: copayOf(primary ?? onlyUnlabelled) };
}

function copayOf(winner: BenefitRow | null): Sourced<number | null> {
  if (!winner || winner.amount === null || winner.amount === 'no limit') return { value: null, sources: [] };
  const sources = [winner.eb.raw];
  for (const message of winner.benefit.msg) sources.push(message.raw);
  return { value: winner.amount, sources };
}
