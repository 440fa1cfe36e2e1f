import { describe, expect, it } from 'vitest';
import { parseLastUpdated } from './parse-last-updated';

const iso = (value: string) => parseLastUpdated(value)?.map((b) => `${b.prefix} ${b.at.toISOString()}`) ?? null;

describe('parseLastUpdated (FHIR R4 date search on _lastUpdated)', () => {
  it.each([
    ['2024', ['ge 2024-01-01T00:00:00.000Z', 'lt 2025-01-01T00:00:00.000Z']],
    ['eq2024-02', ['ge 2024-02-01T00:00:00.000Z', 'lt 2024-03-01T00:00:00.000Z']],
    ['ge2024-03-01', ['ge 2024-03-01T00:00:00.000Z']],
    ['gt2024-03-01', ['ge 2024-03-02T00:00:00.000Z']],
    ['le2024-03-01', ['lt 2024-03-02T00:00:00.000Z']],
    ['lt2024-03-01', ['lt 2024-03-01T00:00:00.000Z']],
    ['ge2024-03-01T10:00:00Z', ['ge 2024-03-01T10:00:00.000Z']],
    ['gt2024-03-01T10:00:00Z', ['ge 2024-03-01T10:00:01.000Z']],
    ['ge2024-03-01T10:00:00+02:00', ['ge 2024-03-01T08:00:00.000Z']],
    ['le2024-03-01T10:00:00.250Z', ['lt 2024-03-01T10:00:00.251Z']],
    ['eq2024-03-01T10:00Z', ['ge 2024-03-01T10:00:00.000Z', 'lt 2024-03-01T10:01:00.000Z']],
  ])('reads %s at its precision', (value, expected) => {
    expect(iso(value)).toEqual(expected);
  });

  it.each(['', 'ge', 'sa2024-01-01', 'ge2024-13', 'ge2024-02-30', '2024-03-01T10', 'tomorrow', 'ge2024-03-01 10:00'])(
    'refuses %j',
    (value) => {
      expect(parseLastUpdated(value)).toBeNull();
    },
  );
});
