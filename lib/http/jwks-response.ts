// The JWK Set at the edge (RFC 7517 section 8.5 media type). Public and cacheable for 5 minutes: it holds only the
// public key, and a verifier that caches it keeps working through a short outage of ours.
import type { JwkSet } from '../emr/serve-jwks';

export function renderJwks(jwks: JwkSet): Response {
  return new Response(JSON.stringify(jwks), {
    headers: { 'content-type': 'application/jwk-set+json', 'cache-control': 'public, max-age=300' },
  });
}
