// Whether an eligibility check asked about the patient's own coverage: the member id and payer it asked with,
// against the coverage on file (DECISIONS "Trust boundaries": verify is tied to the patient). The verify and
// roster results report it, and the claims precondition accepts only a check that matches the CURRENT coverage
// on file, so a check of someone else's member id never lets a claim through. Pure: no I/O.

/** `match`: the asked member id and payer equal the coverage on file; `none`: no complete coverage on file. */
export type CoverageOnFile = 'match' | 'mismatch' | 'none';
export const COVERAGE_ON_FILE = ['match', 'mismatch', 'none'] as const;

/** The patient's coverage on file as the Patient row holds it (null for self-pay). */
export type Coverage = { memberId: string | null; payerId: string | null };

/**
 * One canonical form for member and payer ids: trimmed, ASCII letters upper-cased. Ruling: X12 identifiers are
 * case-sensitive in principle, but payers match member ids case-insensitively in practice (cards print them
 * upper-case, staff type them either way), so two ids that differ only in letter case name the same member.
 * Nothing else is folded: spaces, hyphens and leading zeros inside an id stay significant.
 */
export function canonicalId(id: string): string {
  return id.trim().replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** Compares the ids a check asked with against the coverage on file. */
export function compareCoverage(asked: { memberId: string; payerId: string }, onFile: Coverage | null): CoverageOnFile {
  if (!onFile?.memberId?.trim() || !onFile.payerId?.trim()) return 'none';
  return canonicalId(asked.memberId) === canonicalId(onFile.memberId) &&
    canonicalId(asked.payerId) === canonicalId(onFile.payerId)
    ? 'match'
    : 'mismatch';
}
