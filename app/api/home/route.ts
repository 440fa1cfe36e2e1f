// GET /api/home: counts of the signed-in user's work for the home screen, by what their scopes open.
import { readHomeEndpoint } from '@/lib/home/endpoints';
import { readHome } from '@/lib/home/read-home';
import { route } from '@/lib/http/route';

export const GET = route(readHomeEndpoint, ({ actor, principal, deps }) =>
  readHome(deps, { clinicId: actor.clinicId, timeZone: actor.clinicTimeZone, scopes: principal.scopes }),
);
