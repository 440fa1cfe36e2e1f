// POST /api/emr-sync/partner/pull: partner API pull of a day or a range (at most 31 days) into the FHIR store.
import { route } from '@/lib/http/route';
import { requireFhirStore } from '@/lib/deps';
import { partnerPullEndpoint } from '@/lib/emr/endpoints';
import { pullPartner } from '@/lib/emr/pull-partner';

export const POST = route(partnerPullEndpoint, ({ body, actor, deps }) =>
  pullPartner({ ...deps, fhirStore: requireFhirStore(deps) }, { ...body, ...actor }),
);
