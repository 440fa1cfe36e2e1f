import { describe, expect, it } from 'vitest';
import { generateBackupCodes, hashBackupCode, looksLikeBackupCode } from './backup-codes';
import { BACKUP_CODE_COUNT } from './rate-limit-policy';

const unambiguous =
  /^[abcdefghjkmnpqrstuvwxyz23456789]{4}-[abcdefghjkmnpqrstuvwxyz23456789]{4}-[abcdefghjkmnpqrstuvwxyz23456789]{4}$/;

describe('generateBackupCodes', () => {
  it('issues ten distinct codes by default in an unambiguous xxxx-xxxx-xxxx form', () => {
    const codes = generateBackupCodes();
    expect(codes).toHaveLength(BACKUP_CODE_COUNT);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(unambiguous);
  });

  it('carries at least 50 bits of entropy per code', () => {
    expect(12 * Math.log2(31)).toBeGreaterThanOrEqual(50);
  });

  it('honours a custom count and refuses a nonsensical one', () => {
    expect(generateBackupCodes(3)).toHaveLength(3);
    expect(() => generateBackupCodes(0)).toThrow(RangeError);
    expect(() => generateBackupCodes(1.5)).toThrow(RangeError);
  });

  it('draws every symbol of the alphabet in every position over many codes', () => {
    const codes = generateBackupCodes(2000).map((code) => code.replace(/-/g, ''));
    for (let position = 0; position < 12; position += 1) {
      expect(new Set(codes.map((code) => code[position])).size).toBe(31);
    }
  });
});

describe('hashBackupCode', () => {
  it('gives the SHA-256 hex of the normalised code', () => {
    // sha256("abcd2345wxyz"), computed independently.
    expect(hashBackupCode('abcd-2345-wxyz')).toBe('b337444efd14a226c60c1893e4ee99404c1b869e8d1add9bb6d397d609623c5d');
    expect(hashBackupCode('abcd-2345-wxyz')).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['upper case', 'ABCD-2345-WXYZ'],
    ['no dashes', 'abcd2345wxyz'],
    ['spaces instead of dashes', 'abcd 2345 wxyz'],
    ['surrounding whitespace', '  abcd-2345-wxyz\n'],
    ['en dashes from a word processor', 'abcd\u20132345\u2013wxyz'],
    ['full-width characters', '\uff41\uff42\uff43\uff44-2345-wxyz'],
  ])('ignores presentation differences (%s)', (_name, typed) => {
    expect(hashBackupCode(typed)).toBe(hashBackupCode('abcd-2345-wxyz'));
  });

  it('gives different hashes for different codes', () => {
    const [a, b] = generateBackupCodes(2);
    expect(hashBackupCode(a!)).not.toBe(hashBackupCode(b!));
  });
});

describe('looksLikeBackupCode', () => {
  it('recognises generated codes, however they are typed', () => {
    for (const code of generateBackupCodes()) {
      expect(looksLikeBackupCode(code)).toBe(true);
      expect(looksLikeBackupCode(code.toUpperCase().replace(/-/g, ' '))).toBe(true);
    }
  });

  it.each([
    ['a 6-digit TOTP code', '123456'],
    ['a TOTP code with a space', '123 456'],
    ['empty', ''],
    ['too short', 'abcd-2345-wxy'],
    ['too long', 'abcd-2345-wxyz-a'],
    ['ambiguous characters', 'abcd-0000-1111'],
    ['letter o and l', 'oooo-llll-iiii'],
    ['punctuation', 'abcd.2345.wxyz'],
  ])('does not take %s for a backup code', (_name, input) => {
    expect(looksLikeBackupCode(input)).toBe(false);
  });
});
