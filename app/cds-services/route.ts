// GET /cds-services: the CDS Hooks 2.0 discovery document (public, CORS). OPTIONS answers the CORS preflight.
import { route } from '@/lib/http/route';
import { getCdsDiscovery } from '@/lib/cds-hooks/endpoints';
import { buildCdsDiscovery } from '@/lib/cds-hooks/cds-services';
import { cdsPreflight } from '@/lib/http/cds-preflight';

export const GET = route(getCdsDiscovery, () => buildCdsDiscovery());
export const OPTIONS = cdsPreflight;
