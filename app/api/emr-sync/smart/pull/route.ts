// POST /api/emr-sync/smart/pull: SMART Backend Services pull of one smart-backend connection into the FHIR store.
import { route } from '@/lib/http/route';
import { requireFhirStore } from '@/lib/deps';
import { smartPullEndpoint } from '@/lib/emr/endpoints';
import { pullSmartBackend } from '@/lib/emr/pull-smart-backend';

export const POST = route(smartPullEndpoint, ({ body, actor, deps }) =>
  pullSmartBackend({ ...deps, fhirStore: requireFhirStore(deps) }, { ...body, ...actor }),
);
