// POST /cds-services/{id}: a CDS Hooks 2.0 call from a registered EHR (its JWT bearer), answered with cards.
import { route } from '@/lib/http/route';
import { requireFhirStore, requirePayer } from '@/lib/deps';
import { postCdsService } from '@/lib/cds-hooks/endpoints';
import { invokeCdsService } from '@/lib/cds-hooks/invoke-cds-service';
import { readBearer } from '@/lib/cds-hooks/verify-cds-jwt';
import { cdsPreflight } from '@/lib/http/cds-preflight';

export const POST = route(postCdsService, ({ params, readBody, request, correlationId, deps }) =>
  invokeCdsService(
    { ...deps, payer: () => requirePayer(deps), fhirStore: () => requireFhirStore(deps) },
    { serviceId: params.id, bearer: readBearer(request.headers.get('authorization')), readBody, correlationId },
  ),
);
export const OPTIONS = cdsPreflight;
