// Prior authorization: whether the requested service needs it, and every code the payer flags with EB11 Y.
import type { BenefitRow } from './benefit-row';
import { element } from '../element';
import type { Sourced } from './sourced';

type PriorAuth = { required: Sourced<boolean>; codes: Sourced<string[]> };

/**
 * `required` reads feeding rows only (active, on the requested type or the plan); `codes` reads every patient
 * row with EB11 Y, whatever its EB01, EB03 or EB12 (ELIGIBILITY.md: staff see every code the payer flags):
 * EB03 service types and EB13-2 procedure codes, first seen first, without repeats.
 */
export function readPriorAuth(rows: readonly BenefitRow[], component: string): PriorAuth {
  const flagged: string[] = [];
  const requiring: string[] = [];
  // A Set keeps "no repeats" linear (a hostile 271 can flag tens of thousands of codes) and iterates in
  // insertion order. Made at the first flagged row: most 271s flag none.
  let codes: Set<string> | null = null;
  for (const row of rows) {
    if (element(row.eb, 11) !== 'Y') continue;
    codes ??= new Set<string>();
    flagged.push(row.eb.raw);
    if (row.isFeeding && row.isActive && (row.hasRequestedType || row.hasPlanType)) requiring.push(row.eb.raw);
    for (const code of row.benefit.serviceTypeCodes) if (code !== '') codes.add(code);
    const procedure = readProcedureCode(element(row.eb, 13), component);
    if (procedure !== '') codes.add(procedure);
  }
  return {
    required: { value: requiring.length > 0, sources: requiring },
    codes: codes && codes.size > 0 ? { value: [...codes], sources: flagged } : { value: [], sources: [] },
  };
}

/** EB13 is a composite: EB13-1 qualifier (HC, AD, ...), EB13-2 the procedure code, then modifiers. */
function readProcedureCode(eb13: string, component: string): string {
  const first = eb13.indexOf(component);
  if (first === -1) return '';
  const next = eb13.indexOf(component, first + 1);
  return next === -1 ? eb13.slice(first + 1) : eb13.slice(first + 1, next);
}
