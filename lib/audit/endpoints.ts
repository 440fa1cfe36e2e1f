// The audit log, read by a clinic admin (scope users:admin; DECISIONS "Staff app").
import { endpoint } from '../endpoint';
import { AuditList, AuditQuery } from './list-audit';

export const listAuditEndpoint = endpoint({
  method: 'GET',
  path: '/api/audit',
  tags: ['audit'],
  summary:
    "The clinic's audit trail, newest first, at most 100: sign-ins, step-ups, factor changes, user administration, " +
    'money actions, and PHI reads (kind phi-read, from the PHI access log). Filters: userId, action, day ' +
    "(YYYY-MM-DD in the clinic's time zone)",
  auth: 'session',
  scope: 'users:admin',
  query: AuditQuery,
  response: AuditList,
});

export const auditEndpoints = [listAuditEndpoint];
