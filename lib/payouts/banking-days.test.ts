import { describe, expect, it } from 'vitest';
import { addBankingDays, federalReserveHolidays, isBankingDay } from './banking-days';

describe('Federal Reserve banking days', () => {
  it('lists the eleven holidays of 2026 as observed', () => {
    expect([...federalReserveHolidays(2026)].sort()).toEqual(
      [
        '2026-01-01',
        '2026-01-19',
        '2026-02-16',
        '2026-05-25',
        '2026-06-19',
        '2026-07-04', // a Saturday: not moved by the Fed
        '2026-09-07',
        '2026-10-12',
        '2026-11-11',
        '2026-11-26',
        '2026-12-25',
      ].sort(),
    );
  });

  it('keeps the Friday before a Saturday holiday a banking day', () => {
    expect(isBankingDay('2026-07-03')).toBe(true); // July 4th 2026 is a Saturday
    expect(isBankingDay('2027-12-24')).toBe(true); // Christmas 2027 is a Saturday
  });

  it('observes a Sunday holiday on the Monday', () => {
    expect(isBankingDay('2027-07-05')).toBe(false); // July 4th 2027 is a Sunday
    expect(isBankingDay('2028-01-17')).toBe(false); // MLK 2028
    expect(isBankingDay('2023-01-02')).toBe(false); // New Year 2023 was a Sunday
  });

  it('skips weekends and holidays when adding banking days', () => {
    expect(addBankingDays('2026-11-25', 1)).toBe('2026-11-27'); // over Thanksgiving
    expect(addBankingDays('2026-12-24', 1)).toBe('2026-12-28'); // over Christmas and the weekend
    expect(addBankingDays('2026-12-31', 1)).toBe('2027-01-04'); // New Year on a Friday, then the weekend
    expect(addBankingDays('2026-11-28', 2)).toBe('2026-12-01'); // a Saturday start
    expect(addBankingDays('2026-05-22', 1)).toBe('2026-05-26'); // Memorial Day
  });
});
