// GET /api/dashboard/denials: denial rate and top denial reasons of a period, JSON or CSV (claims:read + svcpay:read).
import { resolvePeriod } from '@/lib/dashboard/dashboard-period';
import { denialRateEndpoint } from '@/lib/dashboard/endpoints';
import { denialRateCsv } from '@/lib/dashboard/panel-csv';
import { DenialRate, readDenialRate } from '@/lib/dashboard/read-denial-rate';
import { csvOrJson } from '@/lib/http/csv-or-json';
import { route } from '@/lib/http/route';

export const GET = route(
  { ...denialRateEndpoint, render: csvOrJson(DenialRate, denialRateCsv) },
  ({ query, actor, deps }) =>
    readDenialRate(deps, {
      clinicId: actor.clinicId,
      timeZone: actor.clinicTimeZone,
      period: resolvePeriod(query, deps.clock(), actor.clinicTimeZone),
    }),
);
