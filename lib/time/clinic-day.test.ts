import { describe, expect, it } from 'vitest';
import {
  clinicDateOf,
  clinicDayBounds,
  clinicInstant,
  clinicTimeOf,
  clinicToday,
  isValidTimeZone,
  nextDate,
} from './clinic-day';

const LA = 'America/Los_Angeles';
const NY = 'America/New_York';

describe('clinicToday / clinicDateOf', () => {
  it('is the clinic calendar day, not the UTC one, in the evening west of Greenwich', () => {
    // 17:00 in Los Angeles on 23 November is 01:00 UTC on the 24th.
    const now = new Date('2026-11-24T01:00:00Z');
    expect(now.toISOString().slice(0, 10)).toBe('2026-11-24');
    expect(clinicToday(now, LA)).toBe('2026-11-23');
    expect(clinicToday(now, NY)).toBe('2026-11-23');
    expect(clinicToday(now, 'UTC')).toBe('2026-11-24');
    expect(clinicTimeOf(now, LA)).toBe('17:00');
  });

  it('turns the day over at the clinic midnight, to the millisecond', () => {
    expect(clinicDateOf(new Date('2026-11-24T07:59:59.999Z'), LA)).toBe('2026-11-23');
    expect(clinicDateOf(new Date('2026-11-24T08:00:00.000Z'), LA)).toBe('2026-11-24');
  });

  it('writes midnight as 00, never 24', () => {
    expect(clinicTimeOf(new Date('2026-11-24T05:00:00Z'), NY)).toBe('00:00');
  });
});

describe('clinicDayBounds', () => {
  it('spans 24 hours on an ordinary day', () => {
    const { from, to } = clinicDayBounds('2026-11-23', LA);
    expect(from.toISOString()).toBe('2026-11-23T08:00:00.000Z');
    expect(to.toISOString()).toBe('2026-11-24T08:00:00.000Z');
  });

  it('spans 23 hours on the spring-forward day', () => {
    const { from, to } = clinicDayBounds('2026-03-08', NY);
    expect(from.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(to.toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(to.getTime() - from.getTime()).toBe(23 * 3_600_000);
  });

  it('spans 25 hours on the fall-back day', () => {
    const { from, to } = clinicDayBounds('2026-11-01', LA);
    expect(from.toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(to.toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(to.getTime() - from.getTime()).toBe(25 * 3_600_000);
  });

  it('starts at the first instant of a day whose midnight is skipped (Santiago springs forward at 00:00)', () => {
    // Chile moved from -04 to -03 at 00:00 on 2026-09-06: the day starts at 01:00 local, 04:00 UTC.
    const { from } = clinicDayBounds('2026-09-06', 'America/Santiago');
    expect(from.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(clinicDateOf(new Date(from.getTime() - 1), 'America/Santiago')).toBe('2026-09-05');
  });
});

describe('clinicInstant', () => {
  it('reads a wall time in the clinic zone', () => {
    expect(clinicInstant('2026-11-23', '08:30', LA).toISOString()).toBe('2026-11-23T16:30:00.000Z');
    expect(clinicInstant('2026-07-01', '08:30', NY).toISOString()).toBe('2026-07-01T12:30:00.000Z');
  });

  it('moves a time skipped by spring-forward on by the gap', () => {
    expect(clinicInstant('2026-03-08', '02:30', NY).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(clinicTimeOf(clinicInstant('2026-03-08', '02:30', NY), NY)).toBe('03:30');
  });

  it('takes the first of a time that happens twice at fall-back, west and east of Greenwich', () => {
    expect(clinicInstant('2026-11-01', '01:30', NY).toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(clinicInstant('2026-10-25', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('refuses malformed input', () => {
    expect(() => clinicInstant('2026-3-8', '02:30', NY)).toThrow(RangeError);
    expect(() => clinicInstant('2026-03-08', '2:30', NY)).toThrow(RangeError);
  });
});

describe('nextDate and isValidTimeZone', () => {
  it('crosses months, years and leap days', () => {
    expect(nextDate('2026-12-31')).toBe('2027-01-01');
    expect(nextDate('2028-02-28')).toBe('2028-02-29');
    expect(nextDate('2026-02-28')).toBe('2026-03-01');
  });

  it('knows IANA names and refuses others', () => {
    expect(isValidTimeZone('America/Los_Angeles')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});
