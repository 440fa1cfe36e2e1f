import { describe, expect, it } from 'vitest';
import { isValidNpi } from './is-valid-npi';

describe('isValidNpi', () => {
  // 1234567893 is CMS's worked example of the check digit calculation.
  it.each(['1234567893', '1245319599', '1987654328', '1111111112'])('accepts %s', (npi) => {
    expect(isValidNpi(npi)).toBe(true);
  });

  it.each([
    ['a wrong check digit', '1234567890'],
    ['a transposition', '1234567983'],
    ['nine digits', '123456789'],
    ['eleven digits', '12345678930'],
    ['a letter', '12345678A3'],
    ['an empty string', ''],
  ])('refuses %s', (_case, npi) => {
    expect(isValidNpi(npi)).toBe(false);
  });
});
