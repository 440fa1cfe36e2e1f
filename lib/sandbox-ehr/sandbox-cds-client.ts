// The sandbox EHR as a CDS Hooks client (DECISIONS "CDS Hooks": in sandbox, with CDS_CLIENTS unset, the app's own
// sandbox EHR is the registered client of each demo clinic). One issuer per demo clinic, one ES256 key derived
// from SEAL_KEY (so every bundle and instance signs and publishes the same key without storing it), its JWKS at
// /api/sandbox-ehr/cds-jwks, and a signed-in staff user can mint a call token for their own clinic to try the
// services (POST /api/sandbox-ehr/cds-token). Never in production.
import { createECDH, createHmac, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { importJWK, SignJWT, type JWK } from 'jose';
import type { Clock } from '../clock';
import { requireSealKey, type CdsClient, type Config } from '../config';
import { AppError } from '../errors';
import { SANDBOX_EHR_PREFIX, DEMO_CLINIC_IDS, requireSandbox } from './sandbox-ehr-urls';

export const SANDBOX_CDS_JWKS_PATH = `${SANDBOX_EHR_PREFIX}/cds-jwks`;
const KID = 'sandbox-ehr-cds-1';

export const sandboxCdsIssuer = (appUrl: string, clinicId: string) =>
  `${appUrl}${SANDBOX_EHR_PREFIX}/clinics/${clinicId}`;

/** CDS_CLIENTS as the sandbox registers its EHR: each demo clinic's issuer, the sandbox EHR's JWKS. */
export function sandboxCdsClients(appUrl: string): Record<string, CdsClient> {
  return Object.fromEntries(
    DEMO_CLINIC_IDS.map((clinicId) => [
      sandboxCdsIssuer(appUrl, clinicId),
      { jwksUrl: `${appUrl}${SANDBOX_CDS_JWKS_PATH}`, clinicId },
    ]),
  );
}

// P-256 private scalar from SEAL_KEY through HMAC (a distinct purpose label, so it reveals nothing of the key).
function sandboxKeyJwk(config: Pick<Config, 'sealKey'>): JWK {
  const d = createHmac('sha256', requireSealKey(config)).update('sandbox-ehr:cds-signing-key').digest();
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey(); // 0x04 || x || y
  return {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
    d: d.toString('base64url'),
  };
}

export const SandboxCdsJwks = z.object({ keys: z.array(z.looseObject({ kid: z.string(), kty: z.string() })) });

/** The public half, for the JWKS route. 404 outside sandbox. */
export function sandboxCdsJwks(config: Pick<Config, 'mode' | 'sealKey'>): z.infer<typeof SandboxCdsJwks> {
  requireSandbox(config);
  const { d: _private, ...publicJwk } = sandboxKeyJwk(config);
  return { keys: [{ ...publicJwk, kid: KID, alg: 'ES256', use: 'sig' } as { kid: string; kty: string }] };
}

export const SandboxCdsTokenBody = z.object({
  service: z.enum(['coverage-check', 'coverage-requirements']),
  feedback: z.boolean().default(false),
});
export const SandboxCdsToken = z.object({ token: z.string(), issuer: z.string(), aud: z.string(), expiresIn: z.int() });

/** A call token of the clinic's sandbox issuer: aud = the service (or its feedback) URL, 5 minutes, fresh jti. */
export async function mintSandboxCdsToken(
  deps: { config: Pick<Config, 'mode' | 'sealKey' | 'appUrl' | 'cdsClients'>; clock: Clock },
  clinicId: string,
  body: z.infer<typeof SandboxCdsTokenBody>,
): Promise<z.infer<typeof SandboxCdsToken>> {
  requireSandbox(deps.config);
  const issuer = sandboxCdsIssuer(deps.config.appUrl, clinicId);
  // Only when the sandbox EHR is the registered client: with an operator's CDS_CLIENTS its tokens are worthless.
  if (deps.config.cdsClients || !(DEMO_CLINIC_IDS as readonly string[]).includes(clinicId)) {
    throw new AppError('FORBIDDEN', 'The sandbox EHR is not registered for this clinic');
  }
  const aud = `${deps.config.appUrl}/cds-services/${body.service}${body.feedback ? '/feedback' : ''}`;
  const now = Math.floor(deps.clock().getTime() / 1000);
  const key = await importJWK(sandboxKeyJwk(deps.config), 'ES256');
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: KID, typ: 'JWT' })
    .setIssuer(issuer)
    .setSubject('sandbox-ehr')
    .setAudience(aud)
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .setJti(randomUUID())
    .sign(key);
  return { token, issuer, aud, expiresIn: 300 };
}
