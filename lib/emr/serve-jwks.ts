// GET /.well-known/jwks.json: the public half of our SMART Backend Services key as a JWK Set (RFC 7517), the URL an
// EMR registers to verify our client assertions. Without SMART_* configured there is no key: 404 NOT_FOUND, not an
// empty set, so a registration against a misconfigured deployment fails loudly and a verifier keeps its cache.
import type { JWK } from 'jose';
import type { Config } from '../config';
import { AppError } from '../errors';
import { publicJwks } from './jwks';

export type JwkSet = { keys: JWK[] };

let cached: { pem: string; keyId: string; jwks: JwkSet } | undefined;

export async function serveJwks(config: Pick<Config, 'smart'>): Promise<JwkSet> {
  if (!config.smart)
    throw new AppError('NOT_FOUND', 'No signing key is configured', {
      cause: new Error('unconfigured: SMART_PRIVATE_KEY'),
    });
  const { privateKeyPem: pem, keyId } = config.smart;
  if (cached?.pem !== pem || cached.keyId !== keyId) cached = { pem, keyId, jwks: await publicJwks(pem, keyId) };
  return cached.jwks;
}
