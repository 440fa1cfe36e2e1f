// The inbound webhook signature check (SPEC.md, Events: signature contract): hex HMAC-SHA256 of the exact
// raw body, optional `sha256=` prefix, constant-time compare, any of several current secrets. Pure: reading
// the header and body, choosing the receiver's secrets and answering 401 belong to the route wrapper.
import { createHmac, timingSafeEqual } from 'node:crypto';

const SHA256_BYTES = 32;
// Exactly 64 hex digits, either case. Checked before decoding because Buffer.from(hex, 'hex') silently
// stops at the first bad character, which would turn garbage into a short, comparable buffer.
const HEX_DIGEST = /^[0-9a-f]{64}$/i;
// SPEC says "optionally prefixed sha256=". The prefix is matched case-insensitively (`SHA256=` too): it only
// names the algorithm, carries no secret, and senders differ in how they spell it; the MAC still decides.
const PREFIX = /^sha256=/i;

function hmacSha256(secret: string | Uint8Array, rawBody: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(rawBody).digest();
}

/**
 * The signature a sender puts in `X-Svc-Signature` for `rawBody` (lower-case hex, no prefix). For docs,
 * tests and fakes; receivers call {@link verifySignature}. A string secret is used as its UTF-8 bytes.
 */
export function signBody(rawBody: Uint8Array, secret: string | Uint8Array): string {
  return hmacSha256(secret, rawBody).toString('hex');
}

/**
 * True when `header` is the hex HMAC-SHA256 of exactly `rawBody` (the bytes as received, never a
 * re-serialised copy) under any one of `secrets`, so a receiver can accept old and new secrets while
 * they rotate. `sha256=` (any case) may prefix the hex; the hex may be upper or lower case; surrounding
 * whitespace is ignored.
 *
 * Never throws on attacker input: a missing, malformed or wrong-length header is simply false. An empty
 * secret list, and empty secrets inside it, never verify anything (an empty key would let anyone sign).
 */
export function verifySignature(
  rawBody: Uint8Array,
  header: string | null,
  secrets: readonly (string | Uint8Array)[],
): boolean {
  if (header === null) return false;
  const hex = header.trim().replace(PREFIX, '');
  if (!HEX_DIGEST.test(hex)) return false;
  const presented = Buffer.from(hex, 'hex');
  if (presented.length !== SHA256_BYTES) return false;

  // Constant time: the signature is attacker-controlled, so no early exit on the first differing byte,
  // and every secret is tried so the response time does not say which one (if any) matched.
  let isValid = false;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    const expected = hmacSha256(secret, rawBody);
    isValid = timingSafeEqual(expected, presented) || isValid;
  }
  return isValid;
}
