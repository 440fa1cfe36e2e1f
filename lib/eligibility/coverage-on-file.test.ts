// The one comparison behind `coverageOnFile` and the claims precondition: which differences name another member.
import { describe, expect, it } from 'vitest';
import { compareCoverage } from './coverage-on-file';

const ON_FILE = { memberId: 'W123-456 A', payerId: '60054' };

describe('compareCoverage', () => {
  it.each([
    ['the same ids', { memberId: 'W123-456 A', payerId: '60054' }, 'match'],
    [
      'ids that differ only in letter case and surrounding spaces',
      { memberId: '  w123-456 a ', payerId: '60054' },
      'match',
    ],
    ['another member id', { memberId: 'W123-456 B', payerId: '60054' }, 'mismatch'],
    ['a member id without its hyphen', { memberId: 'W123456 A', payerId: '60054' }, 'mismatch'],
    ['a member id with a leading zero', { memberId: '0W123-456 A', payerId: '60054' }, 'mismatch'],
    ['a prefix of the member id', { memberId: 'W123-456', payerId: '60054' }, 'mismatch'],
    ['another payer', { memberId: 'W123-456 A', payerId: '87726' }, 'mismatch'],
  ] as const)('calls %s %s', (_name, asked, expected) => {
    expect(compareCoverage(asked, ON_FILE)).toBe(expected);
  });

  it.each([
    ['no coverage at all', null],
    ['no member id on file', { memberId: null, payerId: '60054' }],
    ['no payer on file', { memberId: 'W123-456 A', payerId: null }],
    ['a blank member id on file', { memberId: '  ', payerId: '60054' }],
  ])('answers none for %s', (_name, onFile) => {
    expect(compareCoverage({ memberId: 'W123-456 A', payerId: '60054' }, onFile)).toBe('none');
  });
});
