// FHIR R4 date search (search.html#date) for _lastUpdated: a prefix (eq, ge, gt, le, lt; eq when absent) and a
// date or dateTime whose precision makes it a range ("2024-03" is all of March). Dates and times without a zone
// are read as UTC. Each value becomes one or two bounds on the stored lastUpdated instant.
import type { LastUpdatedBound } from './fhir-store';

const VALUE =
  /^(eq|ge|gt|le|lt)?(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/** Bounds for one _lastUpdated value, or null when the value is not a supported prefix and date. */
export function parseLastUpdated(value: string): LastUpdatedBound[] | null {
  const match = VALUE.exec(value);
  if (!match) return null;
  const [, prefix = 'eq', year, month, day, hour, minute, second, fraction, zone] = match;
  const [low, high] = range(year!, month, day, hour, minute, second, fraction, zone);
  if (!low || !high || Number.isNaN(low.getTime()) || Number.isNaN(high.getTime())) return null;
  switch (prefix) {
    case 'eq':
      return [
        { prefix: 'ge', at: low },
        { prefix: 'lt', at: high },
      ];
    case 'ge':
      return [{ prefix: 'ge', at: low }];
    case 'gt':
      return [{ prefix: 'ge', at: high }];
    case 'le':
      return [{ prefix: 'lt', at: high }];
    default:
      return [{ prefix: 'lt', at: low }];
  }
}

/** [start, end) of the period the value names, at its precision. */
function range(
  year: string,
  month?: string,
  day?: string,
  hour?: string,
  minute?: string,
  second?: string,
  fraction?: string,
  zone?: string,
): [Date | null, Date | null] {
  const y = Number(year);
  if (month === undefined) return [utc(y, 0, 1), utc(y + 1, 0, 1)];
  const m = Number(month) - 1;
  if (m < 0 || m > 11) return [null, null];
  if (day === undefined) return [utc(y, m, 1), utc(y, m + 1, 1)];
  const d = Number(day);
  const start = utc(y, m, d);
  if (start.getUTCMonth() !== m) return [null, null]; // e.g. 2024-02-30
  if (hour === undefined) return [start, utc(y, m, d + 1)];
  const offset = zone && zone !== 'Z' ? zoneMinutes(zone) : 0;
  const millis = fraction ? Number(fraction.slice(1, 4).padEnd(3, '0')) : 0;
  const at = Date.UTC(y, m, d, Number(hour), Number(minute), Number(second ?? 0), millis) - offset * 60_000;
  const step = second === undefined ? 60_000 : fraction ? 1 : 1000;
  return [new Date(at), new Date(at + step)];
}

const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));

function zoneMinutes(zone: string): number {
  const sign = zone.startsWith('-') ? -1 : 1;
  const [h, m] = zone.slice(1).split(':').map(Number);
  return sign * ((h ?? 0) * 60 + (m ?? 0));
}
