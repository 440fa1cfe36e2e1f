// POST /api/webhook-endpoints/{id}/rotate-secret: a new signing secret, shown once; the old one signs too for 24 h.
import { route } from '@/lib/http/route';
import { rotateSecretEndpoint } from '@/lib/events/endpoints';
import { rotateSigningSecret } from '@/lib/events/rotate-signing-secret';

export const POST = route(rotateSecretEndpoint, ({ params, actor, deps }) =>
  rotateSigningSecret(deps, { ...actor, id: params.id }),
);
