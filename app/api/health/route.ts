// GET /api/health: public; mode and database reachability (503 when the database does not answer).
import { route } from '@/lib/http/route';
import { getHealth } from '@/lib/health/endpoints';
import { checkHealth } from '@/lib/health/check-health';

export const GET = route(getHealth, ({ deps }) => checkHealth(deps));
