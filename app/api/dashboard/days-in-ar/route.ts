// GET /api/dashboard/days-in-ar: days in accounts receivable, JSON or CSV (claims:read + svcpay:read).
import { daysInArEndpoint } from '@/lib/dashboard/endpoints';
import { daysInArCsv } from '@/lib/dashboard/panel-csv';
import { DaysInAr, readDaysInAr } from '@/lib/dashboard/read-days-in-ar';
import { csvOrJson } from '@/lib/http/csv-or-json';
import { route } from '@/lib/http/route';

export const GET = route({ ...daysInArEndpoint, render: csvOrJson(DaysInAr, daysInArCsv) }, ({ actor, deps }) =>
  readDaysInAr(deps, { clinicId: actor.clinicId, timeZone: actor.clinicTimeZone }),
);
