// GET /api/appointments?date=YYYY-MM-DD: the clinic's appointments of that day in the clinic's time zone
// (default: the clinic's today; scope appointments:read).
import { route } from '@/lib/http/route';
import { getAppointments } from '@/lib/appointments/endpoints';
import { listAppointments } from '@/lib/appointments/list-appointments';

export const GET = route(getAppointments, ({ query, actor, deps }) =>
  listAppointments(deps, { reader: actor, clinicTimeZone: actor.clinicTimeZone, date: query.date }),
);
