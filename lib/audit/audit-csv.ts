// The audit log as a CSV download: the same entries and filters as the screen; `detail` (reasons and ids only,
// never PHI or secrets) as its JSON text.
import type { CsvTable } from '../csv/csv-table';
import type { AuditList } from './list-audit';

export const auditCsv = ({ entries }: AuditList): CsvTable => ({
  filename: 'audit-log',
  header: ['at', 'kind', 'action', 'outcome', 'userId', 'userEmail', 'correlationId', 'detail'],
  rows: entries.map((e) => [
    e.at,
    e.kind,
    e.action,
    e.outcome,
    e.userId,
    e.userEmail,
    e.correlationId,
    e.detail === undefined || e.detail === null ? '' : JSON.stringify(e.detail),
  ]),
});
