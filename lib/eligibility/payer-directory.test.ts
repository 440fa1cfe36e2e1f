import { describe, expect, it } from 'vitest';
import { PAYER_DIRECTORY, findPayerByName, findPayerName } from './payer-directory';

describe('findPayerByName', () => {
  it.each([
    ['Aetna', { payerId: '60054', name: 'Aetna' }],
    ['UnitedHealthcare', { payerId: '87726', name: 'UnitedHealthcare' }],
    ['Cigna', { payerId: '62308', name: 'Cigna' }],
    ['Humana', { payerId: '61101', name: 'Humana' }],
    ['Anthem Blue Cross', { payerId: '47198', name: 'Anthem Blue Cross (California)' }],
    ['Kaiser Permanente Northern California', { payerId: '94135', name: 'Kaiser Permanente Northern California' }],
    ['Kaiser SoCal', { payerId: '94134', name: 'Kaiser Permanente Southern California' }],
    ['Medi-Cal', { payerId: '610442', name: 'Medi-Cal (California Medicaid)' }],
    ['Medicare Part B Texas', { payerId: '04412', name: 'Medicare Part B Texas (Novitas Solutions)' }],
  ])('finds %s', (typed, expected) => {
    expect(findPayerByName(typed)).toEqual(expected);
  });

  it.each(['aetna', '  AETNA  ', 'Aetna, Inc.', 'Aetna Life Insurance Company', 'The Aetna'])(
    'ignores case, spacing, punctuation and corporate suffixes: %j',
    (typed) => {
      expect(findPayerByName(typed)).toEqual({ payerId: '60054', name: 'Aetna' });
    },
  );

  it.each(['United Healthcare', 'UNITED HEALTH CARE', 'united-healthcare', 'UHC', 'U.H.C.'])(
    'reads aliases and spellings of the same payer: %j',
    (typed) => {
      expect(findPayerByName(typed)).toEqual({ payerId: '87726', name: 'UnitedHealthcare' });
    },
  );

  it.each(['Blue Cross and Blue Shield of Texas', 'Blue Cross & Blue Shield of Texas', 'BCBS Texas', 'bcbstx'])(
    'treats "and", "&" and "of" as noise: %j',
    (typed) => {
      expect(findPayerByName(typed)).toEqual({ payerId: '84980', name: 'Blue Cross Blue Shield of Texas' });
    },
  );

  it.each([
    ['an unknown payer', 'Acme Health Plan'],
    ['an empty name', ''],
    ['punctuation only', ' .,- '],
    ['bare Anthem (an id per state)', 'Anthem'],
    ['bare Kaiser (an id per region)', 'Kaiser Permanente'],
    ['bare Medicare (an id per contractor)', 'Medicare'],
    ['bare Blue Cross Blue Shield', 'Blue Cross Blue Shield'],
    ['bare Highmark (an id per state)', 'Highmark'],
    ['a partial name', 'Aet'],
  ])('finds nothing for %s', (_case, typed) => {
    expect(findPayerByName(typed)).toBeNull();
  });
});

describe('findPayerName', () => {
  it("answers the directory's name for a listed id, and null for an unlisted or absent one", () => {
    expect(findPayerName('60054')).toBe('Aetna');
    expect(findPayerName('87726')).toBe('UnitedHealthcare');
    expect(findPayerName('99999')).toBeNull();
    expect(findPayerName(null)).toBeNull();
    expect(findPayerName(undefined)).toBeNull();
  });
});

describe('PAYER_DIRECTORY', () => {
  it('ships at least fifteen payers, each with a distinct numeric payer id', () => {
    const ids = PAYER_DIRECTORY.map((entry) => entry.payerId);
    expect(ids.length).toBeGreaterThanOrEqual(15);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !/^\d{5,6}$/.test(id))).toEqual([]);
  });

  it('finds every entry by its own name and by each alias', () => {
    const misses = PAYER_DIRECTORY.flatMap((entry) =>
      [entry.name, ...entry.aliases]
        .filter((typed) => findPayerByName(typed)?.payerId !== entry.payerId)
        .map((typed) => `${typed} -> ${entry.payerId}`),
    );
    expect(misses).toEqual([]);
  });
});
