// MFA backup codes: generation, normalisation + hashing for storage, and telling one apart from a TOTP code.
// Does not store codes or mark them used; the caller keeps only the hashes and consumes a code single-use.
import { createHash, randomInt } from 'node:crypto';
import { BACKUP_CODE_COUNT } from './rate-limit-policy';

// No i, l, o, 0 or 1: the characters people misread when copying a code off paper.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUP_LENGTH = 4;
const GROUP_COUNT = 3;
// 12 characters from 31 symbols ≈ 59.4 bits of entropy per code (the floor we need is 50).
const CODE_LENGTH = GROUP_LENGTH * GROUP_COUNT;
const NORMALIZED_CODE = new RegExp(`^[${ALPHABET}]{${CODE_LENGTH}}$`);

/** `count` fresh codes formatted `xxxx-xxxx-xxxx`; distinct within one call. Show once, store only the hashes. */
export function generateBackupCodes(count: number = BACKUP_CODE_COUNT): string[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a positive integer');
  const codes = new Set<string>();
  while (codes.size < count) {
    // randomInt draws without modulo bias, so every symbol is equally likely.
    const symbols = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]!).join('');
    const groups = Array.from({ length: GROUP_COUNT }, (_, i) =>
      symbols.slice(i * GROUP_LENGTH, (i + 1) * GROUP_LENGTH),
    );
    codes.add(groups.join('-'));
  }
  return [...codes];
}

/**
 * SHA-256 hex of the normalised code (case, spaces and dashes ignored), for storage and lookup. A fast unsalted
 * hash is enough here, unlike for passwords: each code carries ~59 random bits, so a stolen hash cannot be
 * brute-forced, and a deterministic hash lets the caller find the matching row by equality.
 */
export function hashBackupCode(code: string): string {
  return createHash('sha256').update(normalizeBackupCode(code), 'utf8').digest('hex');
}

/** True when the input has the shape of a backup code (as opposed to a 6-digit TOTP code). Not a validity check. */
export function looksLikeBackupCode(input: string): boolean {
  return NORMALIZED_CODE.test(normalizeBackupCode(input));
}

// NFKC folds full-width characters some mobile keyboards produce; the dash class covers en/em dashes and minus
// signs that word processors substitute when a user pastes the printed codes back.
function normalizeBackupCode(input: string): string {
  return input
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\-\u2010-\u2015\u2212]/g, '');
}
