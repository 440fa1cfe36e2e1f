// GET /api/audit: the clinic's audit trail and PHI reads, newest first, at most 100, JSON or CSV (users:admin).
import { route } from '@/lib/http/route';
import { listAuditEndpoint } from '@/lib/audit/endpoints';
import { AuditList, listAudit } from '@/lib/audit/list-audit';
import { auditCsv } from '@/lib/audit/audit-csv';
import { csvOrJson } from '@/lib/http/csv-or-json';

export const GET = route({ ...listAuditEndpoint, render: csvOrJson(AuditList, auditCsv) }, ({ query, actor, deps }) =>
  listAudit(deps, { userId: query.userId, action: query.action, day: query.day, clinicId: actor.clinicId }),
);
