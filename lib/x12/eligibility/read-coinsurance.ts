// Coinsurance (EB01 A), individual level: EB08 as an integer percent.
import { readDecimal } from '../../money/decimal';
import { compareRows, type BenefitRow } from './benefit-row';
import { element } from '../element';
import type { Sourced } from './sourced';

/** The best-ranked individual A row whose EB08 is an integer percent. */
export function readCoinsurance(feeding: readonly BenefitRow[]): Sourced<number | null> {
  let winner: BenefitRow | null = null;
  let percent: number | null = null;
  for (const row of feeding) {
    if (row.eb01 !== 'A' || !row.isIndividual) continue;
    const value = readPercent(element(row.eb, 8));
    if (value !== null && (!winner || compareRows(row, winner) < 0)) {
      winner = row;
      percent = value;
    }
  }
  return winner ? { value: percent, sources: [winner.eb.raw] } : { value: null, sources: [] };
}

/** EB08 is a fraction (".2" is 20 %), or already a percent when above 1 ("20"); null for anything else. */
function readPercent(value: string): number | null {
  const decimal = readDecimal(value);
  if (!decimal || decimal.whole.length > 6) return null;
  const whole = Number(decimal.whole); // '' (".2") is 0
  const fractionIsZero = /^0*$/.test(decimal.fraction);
  if (whole > 1 || (whole === 1 && !fractionIsZero)) return fractionIsZero ? whole : null;
  const padded = decimal.fraction.padEnd(2, '0');
  if (!/^0*$/.test(padded.slice(2))) return null; // 12.5 % is not an integer percent; prefer null to a guess
  return whole * 100 + Number(padded.slice(0, 2));
}
