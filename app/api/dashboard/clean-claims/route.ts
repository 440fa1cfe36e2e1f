// GET /api/dashboard/clean-claims: first-pass clean-claim rate of a period, JSON or CSV (claims:read + svcpay:read).
import { resolvePeriod } from '@/lib/dashboard/dashboard-period';
import { cleanClaimRateEndpoint } from '@/lib/dashboard/endpoints';
import { cleanClaimRateCsv } from '@/lib/dashboard/panel-csv';
import { CleanClaimRate, readCleanClaimRate } from '@/lib/dashboard/read-clean-claim-rate';
import { csvOrJson } from '@/lib/http/csv-or-json';
import { route } from '@/lib/http/route';

export const GET = route(
  { ...cleanClaimRateEndpoint, render: csvOrJson(CleanClaimRate, cleanClaimRateCsv) },
  ({ query, actor, deps }) =>
    readCleanClaimRate(deps, {
      clinicId: actor.clinicId,
      timeZone: actor.clinicTimeZone,
      period: resolvePeriod(query, deps.clock(), actor.clinicTimeZone),
    }),
);
