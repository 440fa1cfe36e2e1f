// GET /api/denials: the denial work queue with next actions, ?nextAction= filter and counts, JSON or CSV (claims:read).
import { route } from '@/lib/http/route';
import { listDenialsEndpoint } from '@/lib/remittances/endpoints';
import { DenialList, listDenials } from '@/lib/remittances/list-denials';
import { denialsCsv } from '@/lib/remittances/remittance-csv';
import { csvOrJson } from '@/lib/http/csv-or-json';

export const GET = route(
  { ...listDenialsEndpoint, render: csvOrJson(DenialList, denialsCsv) },
  ({ query, actor, deps }) => listDenials(deps, { clinicId: actor.clinicId, nextAction: query.nextAction }),
);
