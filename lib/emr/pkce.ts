// PKCE (RFC 7636) and OAuth `state` values for the browser authorization-code flow.
// Owns only the random values and the S256 transform; storing them (single-use, 15-minute TTL) is the caller's job.
import { createHash, randomBytes } from 'node:crypto';

export type PkcePair = { codeVerifier: string; codeChallenge: string };

/**
 * A fresh code verifier and its S256 challenge. 32 random octets base64url-encoded give a 43-character verifier
 * drawn only from unreserved characters, which is what RFC 7636 section 4.1 recommends (256 bits of entropy).
 * SMART App Launch v2 requires S256; `plain` is never offered.
 */
export function createPkcePair(): PkcePair {
  const codeVerifier = randomBytes(32).toString('base64url');
  return { codeVerifier, codeChallenge: deriveCodeChallenge(codeVerifier) };
}

/** S256: BASE64URL(SHA256(ASCII(code_verifier))), RFC 7636 section 4.2. */
export function deriveCodeChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier, 'ascii').digest('base64url');
}

/**
 * An unguessable OAuth `state` (256 random bits, base64url). It binds the callback to the browser session that
 * started the flow (CSRF defence, RFC 6749 section 10.12; OAuth 2.0 Security BCP section 4.7).
 */
export function randomState(): string {
  return randomBytes(32).toString('base64url');
}
