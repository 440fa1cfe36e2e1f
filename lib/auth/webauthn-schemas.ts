// Wire shapes of WebAuthn (as @simplewebauthn/browser sends them: base64url JSON) and of passkeys in our API.
// Bounds only: the cryptographic checks are @simplewebauthn/server's, in register-passkey.ts and
// verify-passkey-assertion.ts.
import { z } from 'zod';

const base64Url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

const ExtensionResults = z.record(z.string(), z.unknown());

export const RegistrationResponseJson = z.object({
  id: base64Url(1400).min(1),
  rawId: base64Url(1400).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64Url(4096),
    attestationObject: base64Url(65536),
    authenticatorData: base64Url(65536).optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64Url(8192).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: ExtensionResults,
});
export type RegistrationResponseJson = z.infer<typeof RegistrationResponseJson>;

export const AuthenticationResponseJson = z.object({
  id: base64Url(1400).min(1),
  rawId: base64Url(1400).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64Url(4096),
    authenticatorData: base64Url(65536),
    signature: base64Url(4096),
    userHandle: base64Url(1024).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: ExtensionResults,
});
export type AuthenticationResponseJson = z.infer<typeof AuthenticationResponseJson>;

/** Options for navigator.credentials.create/get, passed to the browser as the library builds them. */
export const CeremonyOptions = z.object({ options: z.looseObject({ challenge: z.string() }) });
export type CeremonyOptions = z.infer<typeof CeremonyOptions>;

/** A passkey as the API shows it: never the public key or the signature counter. */
export const Passkey = z.object({
  id: z.string(),
  name: z.string().nullable(),
  deviceType: z.string(),
  backedUp: z.boolean(),
  transports: z.array(z.string()),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type Passkey = z.infer<typeof Passkey>;
