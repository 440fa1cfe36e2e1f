// GET /api/claims/scrub-edits: the scrubber's edits as data, so a clinic can see the list (claims:read).
import { route } from '@/lib/http/route';
import { listScrubEditsEndpoint } from '@/lib/claims/endpoints';
import { listScrubEdits } from '@/lib/claims/scrub-claim-dry-run';

export const GET = route(listScrubEditsEndpoint, () => listScrubEdits());
