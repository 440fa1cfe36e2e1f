// GET /.well-known/jwks.json: public; our SMART Backend Services public key as a JWK Set (404 when unconfigured).
import { route } from '@/lib/http/route';
import { renderJwks } from '@/lib/http/jwks-response';
import { jwksEndpoint } from '@/lib/emr/endpoints';
import { serveJwks } from '@/lib/emr/serve-jwks';

export const GET = route({ ...jwksEndpoint, render: renderJwks }, ({ deps }) => serveJwks(deps.config, deps.clock));
