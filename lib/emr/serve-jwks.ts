// GET /.well-known/jwks.json: the public half of our SMART Backend Services key as a JWK Set (RFC 7517), the URL an
// EMR registers to verify our client assertions. Without SMART_* configured there is no key: 404 NOT_FOUND, not an
// empty set, so a registration against a misconfigured deployment fails loudly and a verifier keeps its cache.
// After a rotation the previous key (SMART_PREVIOUS_KEY, SMART_PREVIOUS_KEY_ID) is served beside the current one
// until 7 days after SMART_KEY_ROTATED_AT (DECISIONS "Security findings of 2026-11-28", EMR pulls), so an EHR that
// cached our set, or holds an assertion signed just before the switch, keeps verifying; then it is dropped.
import type { JWK } from 'jose';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { AppError } from '../errors';
import { publicJwk } from './jwks';

export type JwkSet = { keys: JWK[] };

/** How long the previous key is published after a rotation. */
export const ROTATION_OVERLAP_MS = 7 * 24 * 60 * 60_000;

// Public JWKs by PEM and kid: importing a key per request would cost a few milliseconds each.
const cache = new Map<string, Promise<JWK>>();

function jwkOf(pem: string, keyId: string): Promise<JWK> {
  const key = `${keyId}\n${pem}`;
  let jwk = cache.get(key);
  if (!jwk) {
    jwk = publicJwk(pem, keyId);
    jwk.catch(() => cache.delete(key));
    cache.set(key, jwk);
  }
  return jwk;
}

export async function serveJwks(config: Pick<Config, 'smart'>, clock: Clock): Promise<JwkSet> {
  if (!config.smart)
    throw new AppError('NOT_FOUND', 'No signing key is configured', {
      cause: new Error('unconfigured: SMART_PRIVATE_KEY'),
    });
  const { privateKeyPem, keyId, previous } = config.smart;
  const keys = [await jwkOf(privateKeyPem, keyId)];
  if (previous && clock().getTime() < previous.rotatedAt.getTime() + ROTATION_OVERLAP_MS) {
    keys.push(await jwkOf(previous.pem, previous.keyId));
  }
  return { keys };
}
