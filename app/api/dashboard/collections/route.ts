// GET /api/dashboard/collections: collections per week of a period, JSON or CSV (claims:read + svcpay:read).
import { resolvePeriod } from '@/lib/dashboard/dashboard-period';
import { collectionsEndpoint } from '@/lib/dashboard/endpoints';
import { collectionsCsv } from '@/lib/dashboard/panel-csv';
import { Collections, readCollections } from '@/lib/dashboard/read-collections';
import { csvOrJson } from '@/lib/http/csv-or-json';
import { route } from '@/lib/http/route';

export const GET = route(
  { ...collectionsEndpoint, render: csvOrJson(Collections, collectionsCsv) },
  ({ query, actor, deps }) =>
    readCollections(deps, {
      clinicId: actor.clinicId,
      timeZone: actor.clinicTimeZone,
      period: resolvePeriod(query, deps.clock(), actor.clinicTimeZone),
    }),
);
