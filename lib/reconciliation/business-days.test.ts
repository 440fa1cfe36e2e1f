import { describe, expect, it } from 'vitest';
import { addBusinessDays } from './business-days';

describe('addBusinessDays', () => {
  it.each([
    ['2026-11-16', 3, '2026-11-19'], // Monday → Thursday
    ['2026-11-20', 3, '2026-11-25'], // Friday → Wednesday, over the weekend
    ['2026-11-21', 1, '2026-11-23'], // Saturday → Monday
    ['2026-11-16', 0, '2026-11-16'],
  ])('%s + %i business days is %s', (day, count, expected) => {
    expect(addBusinessDays(day, count)).toBe(expected);
  });
});
