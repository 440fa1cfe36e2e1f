// The audit log, read by a clinic admin (scope users:admin; DECISIONS "Staff app").
import { endpoint } from '../endpoint';
import { CSV_TYPE, CsvFormat, CsvRecord } from '../csv/csv-table';
import { AuditList, AuditQuery } from './list-audit';

export const listAuditEndpoint = endpoint({
  method: 'GET',
  path: '/api/audit',
  tags: ['audit'],
  summary:
    "The clinic's audit trail, newest first, at most 100: sign-ins, step-ups, factor changes, user administration, " +
    'money actions, and PHI reads (kind phi-read, from the PHI access log). Filters: userId, action, day ' +
    "(YYYY-MM-DD in the clinic's time zone). With ?format=csv: the same rows as a streamed text/csv download (cells a spreadsheet would run as formulas neutralised)",
  auth: 'session',
  scope: 'users:admin',
  query: AuditQuery.extend({ format: CsvFormat }),
  response: AuditList,
  produces: CSV_TYPE,
  streamLine: CsvRecord,
});

export const auditEndpoints = [listAuditEndpoint];
