// An endpoint's signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks form), the HMAC key
// being the decoded bytes. Sealed at rest under the endpoint's id, so a sealed value copied to another row fails.
import { randomBytes } from 'node:crypto';
import { seal, unseal } from '../crypto/seal';

const PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The HMAC key of a secret: the bytes of the base64 after `whsec_`. */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

const context = (endpointId: string) => `webhook-endpoint:${endpointId}`;

export const sealSigningSecret = (secret: string, key: Buffer, endpointId: string) =>
  seal(secret, key, context(endpointId));

export const unsealSigningSecret = (sealed: string, key: Buffer, endpointId: string) =>
  unseal(sealed, key, context(endpointId));
