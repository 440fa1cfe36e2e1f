// The originator's calendar: the date and time an instant has in the zone that dates ACH files (the Fed's,
// America/New_York). Pure: the caller passes the instant, read from its injected clock.
import { ORIGINATOR } from './originator';

const FORMAT = new Intl.DateTimeFormat('en-CA', {
  timeZone: ORIGINATOR.timeZone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** `date` as YYYY-MM-DD and `time` as HH:MM, both in New York. */
export function originatorDateTime(now: Date): { date: string; time: string } {
  const parts = Object.fromEntries(FORMAT.formatToParts(now).map((part) => [part.type, part.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}
