// Password hashing with scrypt (node:crypto) in a self-describing format. Owns hashing and verification only;
// lockout, rate limits and where hashes are stored belong to the sign-in code.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// N=2^15, r=8, p=1 is the OWASP-recommended scrypt floor; it needs 128·N·r = 32 MiB, which is exactly Node's
// default maxmem, so maxmem is raised to leave headroom.
const COST_N = 2 ** 15;
const BLOCK_SIZE_R = 8;
const PARALLELISM_P = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

// Upper bounds for parameters read back from a stored hash: a corrupted or hostile row must not be able to make
// one verification allocate gigabytes or spin for minutes.
const MAX_COST_N = 2 ** 20;
const MAX_BLOCK_SIZE_R = 32;
const MAX_PARALLELISM_P = 16;
const MAX_MEM_BYTES = 256 * 1024 * 1024;

/**
 * A valid hash (current parameters) of a random password that was thrown away. Verify against it when the user
 * does not exist so that sign-in spends the same scrypt work either way and does not reveal which emails exist.
 * A constant rather than one computed at module load, so importing this module costs nothing; a test checks it
 * still uses the same parameters as `hashPassword`.
 */
export const DUMMY_PASSWORD_HASH =
  'scrypt$32768$8$1$XnWbHoqLzL08N10OtCqTLQ==$P6nhxb6YENpSvHuo+mcV6Q7T8UaLN4CdSMXOF0XFMSM=';

/** Hashes with a fresh 16-byte salt. Output: `scrypt$N$r$p$saltB64$hashB64`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await deriveKey(password, salt, HASH_BYTES, { N: COST_N, r: BLOCK_SIZE_R, p: PARALLELISM_P });
  return ['scrypt', COST_N, BLOCK_SIZE_R, PARALLELISM_P, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** True when `password` matches `stored`. A malformed or unsupported `stored` value gives false; never throws. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) return false;
  try {
    const candidate = await deriveKey(password, parsed.salt, parsed.hash.length, parsed.options);
    // constant time: the comparison must not leak how many leading bytes of the hash an attacker guessed.
    return timingSafeEqual(candidate, parsed.hash);
  } catch {
    return false;
  }
}

type StoredHash = { options: ScryptOptions & { N: number; r: number; p: number }; salt: Buffer; hash: Buffer };

function parseStoredHash(stored: string): StoredHash | null {
  if (typeof stored !== 'string') return null;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, nText, rText, pText, saltText, hashText] = parts as [string, string, string, string, string, string];
  const N = parsePositiveInteger(nText);
  const r = parsePositiveInteger(rText);
  const p = parsePositiveInteger(pText);
  if (N === null || r === null || p === null) return null;
  // scrypt requires N to be a power of two greater than 1.
  if (N < 2 || N > MAX_COST_N || (N & (N - 1)) !== 0) return null;
  if (r > MAX_BLOCK_SIZE_R || p > MAX_PARALLELISM_P) return null;
  const salt = parseBase64(saltText);
  const hash = parseBase64(hashText);
  if (!salt || !hash || salt.length < 8 || hash.length < 16 || hash.length > 64) return null;
  return { options: { N, r, p }, salt, hash };
}

function parsePositiveInteger(text: string): number | null {
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return null;
  return Number(text);
}

// Buffer.from(…, 'base64') silently skips invalid characters, so check the alphabet and the round trip first.
function parseBase64(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

function deriveKey(
  password: string,
  salt: Buffer,
  keyLength: number,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  // NFC so the same password typed on different keyboards/OSes (composed vs decomposed accents) still matches.
  const normalized = password.normalize('NFC');
  return new Promise((resolve, reject) => {
    scrypt(normalized, salt, keyLength, { ...params, maxmem: MAX_MEM_BYTES }, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}
