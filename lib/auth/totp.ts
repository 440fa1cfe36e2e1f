// TOTP (RFC 6238 over RFC 4226 HOTP; SHA-1, 6 digits, 30 s) for MFA: secret creation, otpauth URI, verification
// with a ±1-step window and replay refusal. Does not store anything: the caller seals the secret and stores the
// accepted time step, and rate limiting of attempts belongs to the caller too.
//
// HOTP is computed here with node:crypto rather than otplib's verify because we need the matched time step as a
// bigint, a fixed window of exactly previous/current/next, and a distinct 'replayed' outcome. totp.test.ts proves
// the codes are identical to otplib's and to the RFC 6238 Appendix B vectors.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { generateSecret, generateURI } from 'otplib';

const PERIOD_SECONDS = 30n;
const TOKEN_DIGITS = 6;
// ±1 step tolerates up to ~30 s of clock drift between the phone and the server, as STYLE.md "Auth" fixes.
const WINDOW_STEPS = [-1n, 0n, 1n] as const;

export type TotpVerification = { valid: true; timeStep: bigint } | { valid: false; reason: 'invalid' | 'replayed' };

/** A fresh 160-bit secret (RFC 4226 recommends 160), base32 encoded as authenticator apps expect. */
export function createTotpSecret(): string {
  return generateSecret();
}

/** The otpauth://totp/… URI to show as a QR code during enrolment. */
export function totpUri({
  secret,
  accountName,
  issuer,
}: {
  secret: string;
  accountName: string;
  issuer: string;
}): string {
  return generateURI({ issuer, label: accountName, secret });
}

/**
 * Checks a 6-digit code typed by the user against `secret` (base32) at `now`, accepting the previous, current or
 * next 30 s step. A code whose step is ≤ `lastTimeStep` is refused as 'replayed', so the caller must store the
 * returned `timeStep` (in the same transaction as the sign-in/step-up it grants) for a code to be single use.
 * Throws RangeError when `secret` is not base32 or `now` is not a valid date (server-side data faults, not user
 * input).
 */
export async function verifyTotp(input: {
  secret: string;
  token: string;
  now: Date;
  lastTimeStep: bigint | null;
}): Promise<TotpVerification> {
  const { secret, token, now, lastTimeStep } = input;
  // Anything but exactly six ASCII digits cannot match, so skip the HMAC work.
  if (typeof token !== 'string' || !/^[0-9]{6}$/.test(token)) return { valid: false, reason: 'invalid' };
  const secretBytes = decodeBase32(secret);
  const currentStep = timeStepAt(now);
  const tokenBytes = Buffer.from(token, 'ascii');

  let matchedStep: bigint | null = null;
  // Every candidate is computed and compared (no early exit) so timing does not reveal which step matched.
  for (const offset of WINDOW_STEPS) {
    const step = currentStep + offset;
    if (step < 0n) continue;
    const expected = Buffer.from(totpAt(secretBytes, step, TOKEN_DIGITS), 'ascii');
    // constant time: the token is attacker-controlled.
    const isMatch = timingSafeEqual(expected, tokenBytes);
    // Keep the latest matching step: if one code happens to match two steps, storing the later one stops the
    // same code from being accepted again at that later step.
    if (isMatch) matchedStep = step;
  }

  if (matchedStep === null) return { valid: false, reason: 'invalid' };
  if (lastTimeStep !== null && matchedStep <= lastTimeStep) return { valid: false, reason: 'replayed' };
  return { valid: true, timeStep: matchedStep };
}

/**
 * RFC 6238 TOTP value for one time step, i.e. RFC 4226 HOTP (HMAC-SHA-1, dynamic truncation) with the step as the
 * counter. Exported so the known-answer tests run through the same code as `verifyTotp`.
 */
export function totpAt(secretBytes: Uint8Array, timeStep: bigint, digits: number): string {
  if (timeStep < 0n) throw new RangeError('time step must not be negative');
  if (!Number.isInteger(digits) || digits < 6 || digits > 8) throw new RangeError('digits must be 6, 7 or 8');
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(timeStep);
  const mac = createHmac('sha1', secretBytes).update(counter).digest();
  // RFC 4226 §5.3 dynamic truncation: low nibble of the last byte picks a 4-byte window, top bit masked off.
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** Unix time divided into 30 s steps (RFC 6238 T0 = 0). Throws RangeError for an invalid Date. */
export function timeStepAt(now: Date): bigint {
  const ms = now.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('now must be a valid Date');
  return BigInt(Math.floor(ms / 1000)) / PERIOD_SECONDS;
}

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * RFC 4648 base32 decoding as authenticator apps accept it: case-insensitive, spaces and '=' padding ignored.
 * Throws RangeError for any other character or an empty secret.
 */
export function decodeBase32(secret: string): Buffer {
  const text = secret.replace(/[\s=]/g, '').toUpperCase();
  if (text.length === 0) throw new RangeError('TOTP secret is empty');
  const bytes: number[] = [];
  let buffer = 0;
  let bitCount = 0;
  for (const char of text) {
    const value = BASE32_ALPHABET.indexOf(char);
    if (value === -1) throw new RangeError('TOTP secret is not base32');
    buffer = ((buffer << 5) | value) & 0xffff;
    bitCount += 5;
    if (bitCount >= 8) {
      bitCount -= 8;
      bytes.push((buffer >> bitCount) & 0xff);
    }
  }
  return Buffer.from(bytes);
}
