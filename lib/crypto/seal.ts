// Secrets at rest (MFA secrets, OAuth tokens, client secrets): AES-256-GCM with a context string bound as AAD.
// Owns the sealed format only; reading the key from the environment and key rotation live in config.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const KEY_BYTES = 32;
// 96-bit IV is GCM's native size; random IVs are safe for far more messages than we will ever seal under one key.
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Decodes a base64 (or base64url) key. Throws RangeError unless it is exactly 32 bytes. */
export function parseSealKey(base64: string): Buffer {
  const text = base64.trim();
  // Buffer.from skips characters outside the alphabet, so a typo would silently give a different key.
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw new RangeError('seal key must be base64');
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== KEY_BYTES) throw new RangeError(`seal key must decode to ${KEY_BYTES} bytes, got ${key.length}`);
  return key;
}

/**
 * Encrypts `plaintext` under `key`, binding `context` (e.g. `mfa:<userId>`) as additional authenticated data so a
 * value copied to another row or purpose fails to unseal. Output: `v1.<ivB64url>.<tagB64url>.<ciphertextB64url>`.
 * Not deterministic: every call uses a fresh IV.
 */
export function seal(plaintext: string, key: Buffer, context: string): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aadFor(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/**
 * Reverses `seal`. Throws (Error) when the value is malformed, tampered with, or was sealed under another key or
 * context. The error message never contains key material or plaintext.
 */
export function unseal(sealed: string, key: Buffer, context: string): string {
  assertKey(key);
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('sealed value is malformed');
  const iv = parseBase64Url(parts[1]);
  const tag = parseBase64Url(parts[2]);
  const ciphertext = parseBase64Url(parts[3]);
  if (!iv || !tag || !ciphertext || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new Error('sealed value is malformed');
  }
  // authTagLength pins the tag size so a truncated tag cannot lower the forgery bound.
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aadFor(context));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('sealed value failed authentication (tampered, wrong key or wrong context)');
  }
}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new RangeError(`seal key must be ${KEY_BYTES} bytes`);
}

// The version is part of the AAD too, so a future format cannot be confused with this one.
function aadFor(context: string): Buffer {
  return Buffer.from(`${VERSION}:${context}`, 'utf8');
}

// Canonical base64url only: a non-canonical spelling (spare low bits set in the last character) would decode to
// the same bytes, letting an edited string still unseal. Rejecting it means any edit to the text fails.
function parseBase64Url(text: string | undefined): Buffer | null {
  if (text === undefined || !/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}
