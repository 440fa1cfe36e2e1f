'use client';
// The clinic's clock for every screen: "today", times and dates are the clinic's (its IANA time zone, DECISIONS
// "Staff app"), whatever zone the browser is in. The staff layout provides the zone; a screen calls
// useClinicTime() and formats with it. Dates the API writes as YYYY-MM-DD (birth dates, dates of service,
// coverage dates) are calendar dates and are shown as written, never shifted by a zone.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { clinicDateOf, clinicToday } from '@/lib/time/clinic-day';

/** The schema's default zone, used only if a screen renders outside the staff layout. */
const FALLBACK_ZONE = 'America/New_York';

const ClinicTimeZone = createContext<string>(FALLBACK_ZONE);

export function ClinicTimeProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <ClinicTimeZone.Provider value={timeZone}>{children}</ClinicTimeZone.Provider>;
}

export type ClinicTime = {
  timeZone: string;
  /** The clinic's calendar date now, YYYY-MM-DD. */
  today(): string;
  /** An instant's calendar date at the clinic, YYYY-MM-DD. */
  dateOf(instant: string | Date): string;
  /** An instant's wall-clock time at the clinic: "5:00 PM". */
  time(instant: string | Date): string;
  /** An instant's date at the clinic, or a YYYY-MM-DD calendar date as written: "Nov 23, 2026". */
  date(value: string | Date): string;
  /** An instant as date, time and zone at the clinic: "Nov 23, 2026, 5:00 PM PST". */
  dateTime(instant: string | Date): string;
};

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The formatter for one zone (also for code outside React). */
export function clinicTime(timeZone: string): ClinicTime {
  const timeFormat = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' });
  const dateFormat = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'short', day: 'numeric' });
  const calendarFormat = new Intl.DateTimeFormat('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
  const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  const asDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));
  // Newer ICU puts a narrow no-break space before AM/PM; a plain space reads the same and matches in every
  // engine (server render and browser alike).
  const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
  return {
    timeZone,
    today: () => clinicToday(new Date(), timeZone),
    dateOf: (instant) => clinicDateOf(asDate(instant), timeZone),
    time: (instant) => plain(timeFormat.format(asDate(instant))),
    date: (value) =>
      typeof value === 'string' && CALENDAR_DATE.test(value)
        ? calendarFormat.format(new Date(`${value}T00:00:00Z`))
        : dateFormat.format(asDate(value)),
    dateTime: (instant) => plain(dateTimeFormat.format(asDate(instant))),
  };
}

export function useClinicTime(): ClinicTime {
  const timeZone = useContext(ClinicTimeZone);
  return useMemo(() => clinicTime(timeZone), [timeZone]);
}
