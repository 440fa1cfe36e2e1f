// GET /api/remittances/{id}: one posted 835 with its claims, codes and words; its lines as CSV with ?format=csv (svcpay:read).
import { route } from '@/lib/http/route';
import { getRemittanceEndpoint } from '@/lib/remittances/endpoints';
import { getRemittance, RemittanceDetail } from '@/lib/remittances/remittance-view';
import { remittanceLinesCsv } from '@/lib/remittances/remittance-csv';
import { csvOrJson } from '@/lib/http/csv-or-json';

export const GET = route(
  { ...getRemittanceEndpoint, render: csvOrJson(RemittanceDetail, remittanceLinesCsv) },
  ({ params, actor, deps }) => getRemittance(deps, { clinicId: actor.clinicId, remittanceId: params.id }),
);
