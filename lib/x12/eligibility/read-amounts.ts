// Deductible (EB01 C) and out-of-pocket (EB01 G) amounts in integer cents, individual level only: the total
// for the period, what remains, and what is met (sent, or derived as total minus remaining).
import { compareRows, type BenefitRow } from './benefit-row';
import type { Sourced } from './sourced';

// EB06 time period qualifiers for a total, in preference order (ELIGIBILITY.md); 26 (episode) is not a total.
const TOTAL_PERIODS = ['23', '22', '25', '21', ''];
const REMAINING_PERIOD = '29';
const MET_PERIOD = '24'; // year to date

type Amount = Sourced<number | null>;
type AmountFamily = { individual: Amount; met: Amount; remaining: Amount };

/** A row with "no limit" in EB07 wins like any other and reports null: the payer says there is no such amount. */
export function readAmounts(feeding: readonly BenefitRow[], eb01: 'C' | 'G'): AmountFamily {
  // The family's individual rows with an amount, once: the searches by period below then look at these few.
  const candidates: BenefitRow[] = [];
  for (const row of feeding) if (row.eb01 === eb01 && row.isIndividual && row.amount !== null) candidates.push(row);
  let individual: Amount = { value: null, sources: [] };
  for (const period of TOTAL_PERIODS) {
    const winner = findAmountRow(candidates, period);
    if (winner) {
      individual = amountOf(winner);
      break;
    }
  }
  const remaining = amountOf(findAmountRow(candidates, REMAINING_PERIOD));
  const metRow = findAmountRow(candidates, MET_PERIOD);
  let met = amountOf(metRow);
  if (!metRow && individual.value !== null && remaining.value !== null) {
    const sources = [...individual.sources, ...remaining.sources];
    met = { value: Math.max(0, individual.value - remaining.value), sources };
  }
  return { individual, met, remaining };
}

/** Best of the candidates (individual rows of one EB01 with an amount or "no limit") with this EB06, or null. */
function findAmountRow(candidates: readonly BenefitRow[], eb06: string): BenefitRow | null {
  let winner: BenefitRow | null = null;
  for (const row of candidates) {
    if (row.eb06 !== eb06) continue;
    if (!winner || compareRows(row, winner) < 0) winner = row;
  }
  return winner;
}

function amountOf(winner: BenefitRow | null): Amount {
  if (!winner || winner.amount === null || winner.amount === 'no limit') return { value: null, sources: [] };
  return { value: winner.amount, sources: [winner.eb.raw] };
}
