// POST /cds-services/{id}/feedback: the EHR reports what the clinician did with our cards (its JWT bearer).
import { route } from '@/lib/http/route';
import { postCdsFeedback } from '@/lib/cds-hooks/endpoints';
import { recordCdsFeedback } from '@/lib/cds-hooks/record-cds-feedback';
import { readBearer } from '@/lib/cds-hooks/verify-cds-jwt';
import { cdsPreflight } from '@/lib/http/cds-preflight';

export const POST = route(postCdsFeedback, ({ params, readBody, request, deps }) =>
  recordCdsFeedback(deps, {
    serviceId: params.id,
    bearer: readBearer(request.headers.get('authorization')),
    readBody,
  }),
);
export const OPTIONS = cdsPreflight;
