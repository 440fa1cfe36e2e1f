import { describe, expect, it } from 'vitest';
import { dayNumber } from './day-number';

describe('dayNumber', () => {
  it.each([
    ['1970-01-01', 0],
    ['2025-03-10', 20157],
    ['2024-02-29', 19782],
    ['2000-02-29', 11016],
  ])('counts %s as day %i', (date, day) => {
    expect(dayNumber(date)).toBe(day);
  });

  it.each([
    '2025-02-29',
    '1900-02-29',
    '2025-04-31',
    '2025-13-01',
    '2025-00-10',
    '2025-01-00',
    '2025-3-10',
    '10/03/2025',
    '',
  ])('refuses %j', (date) => {
    expect(dayNumber(date)).toBeNull();
  });
});
