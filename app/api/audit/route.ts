// GET /api/audit: the clinic's audit trail and PHI reads, newest first, at most 100 (users:admin).
import { route } from '@/lib/http/route';
import { listAuditEndpoint } from '@/lib/audit/endpoints';
import { listAudit } from '@/lib/audit/list-audit';

export const GET = route(listAuditEndpoint, ({ query, actor, deps }) =>
  listAudit(deps, { ...query, clinicId: actor.clinicId }),
);
