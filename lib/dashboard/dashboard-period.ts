// The period a dashboard panel covers, in the clinic's calendar (DECISIONS "Staff app, second round"): `from` and
// `to` are clinic dates, both included; by default the 90 days that end today in the clinic's zone. `format=csv`
// asks for the panel's numbers as a CSV download instead of JSON.
import { z } from 'zod';
import { CsvFormat } from '../csv/csv-table';
import { clinicToday } from '../time/clinic-day';

const ClinicDate = (field: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be YYYY-MM-DD`)
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), `${field} must be a real date`);

export const DashboardQuery = z
  .object({
    from: ClinicDate('from').optional(),
    to: ClinicDate('to').optional(),
    format: CsvFormat,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => !q.from || !q.to || daysBetween(q.from, q.to) < 731, {
    message: 'A period is at most two years',
    path: ['from'],
  });
export type DashboardQuery = z.infer<typeof DashboardQuery>;

/** A point-in-time panel (aging, days in A/R): as of today in the clinic's zone. */
export const AsOfQuery = z.object({ format: CsvFormat });

export type Period = { from: string; to: string };

const DEFAULT_DAYS = 90;

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The query's period, filled in from today in the clinic's zone. */
export function resolvePeriod(query: { from?: string; to?: string }, now: Date, timeZone: string): Period {
  const to = query.to ?? (query.from ? addDays(query.from, DEFAULT_DAYS - 1) : clinicToday(now, timeZone));
  return { from: query.from ?? addDays(to, -(DEFAULT_DAYS - 1)), to };
}
