// GET /api/dashboard/ar-aging: accounts receivable aging by payer, JSON or CSV (claims:read + svcpay:read).
import { arAgingEndpoint } from '@/lib/dashboard/endpoints';
import { arAgingCsv } from '@/lib/dashboard/panel-csv';
import { ArAging, readArAging } from '@/lib/dashboard/read-ar-aging';
import { csvOrJson } from '@/lib/http/csv-or-json';
import { route } from '@/lib/http/route';

export const GET = route({ ...arAgingEndpoint, render: csvOrJson(ArAging, arAgingCsv) }, ({ actor, deps }) =>
  readArAging(deps, { clinicId: actor.clinicId, timeZone: actor.clinicTimeZone }),
);
