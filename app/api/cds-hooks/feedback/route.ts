// GET /api/cds-hooks/feedback: the clinic's CDS card feedback counted per service (users:admin).
import { route } from '@/lib/http/route';
import { getCdsFeedbackCounts } from '@/lib/cds-hooks/endpoints';
import { countCdsFeedback } from '@/lib/cds-hooks/record-cds-feedback';

export const GET = route(getCdsFeedbackCounts, ({ actor, deps }) => countCdsFeedback(deps.db, actor.clinicId));
