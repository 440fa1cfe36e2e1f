// The sandbox EHR's credentials and job handles are stateless sealed values (AES-256-GCM under SEAL_KEY, each
// kind bound as its own context, so a refresh token never passes as an access token): authorization codes,
// access and refresh tokens, and bulk export job ids. Expiry is inside the sealed payload. What must be
// single-use (codes, client assertion jti) or revocable (a deleted export) is tracked in a per-process memory
// set: acceptable for a sandbox served by one instance (with several, a code could be redeemed once per instance).
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { requireSealKey, type Config } from '../config';
import { seal, unseal } from '../crypto/seal';

/** Short, so a browser connection's refresh is exercised within a demo. */
export const ACCESS_TOKEN_SECONDS = 300;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
/** RFC 6749 section 4.1.2 recommends at most 10 minutes; a sandbox approval is followed at once. */
export const CODE_SECONDS = 60;
export const BULK_JOB_SECONDS = 3600;

export type AuthorizationCode = {
  t: 'code';
  jti: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  clinicId: string;
  patient: string;
  exp: number;
};
/** `patient` set: a patient-launch token (its clinic's Group, that patient only); unset: a backend (system) token. */
export type AccessToken = {
  t: 'access';
  clientId: string;
  scope: string;
  clinicId?: string;
  patient?: string;
  exp: number;
};
export type RefreshToken = {
  t: 'refresh';
  clientId: string;
  scope: string;
  clinicId: string;
  patient: string;
  exp: number;
};
export type BulkJob = {
  t: 'job';
  jti: string;
  groupId: string;
  types: string[];
  since?: string;
  transactionTime: string;
  request: string;
  /** Parameters ignored under Prefer: handling=lenient, reported in the manifest's error array. */
  ignored: string[];
  exp: number;
};
type Sealed = AuthorizationCode | AccessToken | RefreshToken | BulkJob;

const contextOf = (kind: Sealed['t']) => `sandbox-ehr:${kind}`;

export const newJti = () => randomBytes(12).toString('base64url');
export const secondsFrom = (clock: Clock, seconds: number) => Math.floor(clock().getTime() / 1000) + seconds;

export function sealValue(config: Pick<Config, 'sealKey'>, value: Sealed): string {
  return seal(JSON.stringify(value), requireSealKey(config), contextOf(value.t));
}

/** The payload if `text` is an unexpired sealed value of `kind`, else null (never throws on attacker input). */
export function openValue<K extends Sealed['t']>(
  config: Pick<Config, 'sealKey'>,
  clock: Clock,
  kind: K,
  text: string | null | undefined,
): Extract<Sealed, { t: K }> | null {
  if (!text || text.length > 4096) return null;
  let value: Sealed;
  try {
    value = JSON.parse(unseal(text, requireSealKey(config), contextOf(kind))) as Sealed;
  } catch {
    return null;
  }
  if (value.t !== kind || !(value.exp * 1000 > clock().getTime())) return null;
  return value as Extract<Sealed, { t: K }>;
}

// Per process, bounded by expiry: a used code or assertion id is remembered until it would have expired anyway.
const used = new Map<string, number>();

/** True the first time `id` is seen before `expSeconds`; false on any reuse (single-use codes and jti). */
export function claimOnce(id: string, expSeconds: number, clock: Clock): boolean {
  const nowSeconds = clock().getTime() / 1000;
  for (const [key, exp] of used) if (exp < nowSeconds) used.delete(key);
  if (used.has(id)) return false;
  used.set(id, expSeconds);
  return true;
}

const deletedJobs = new Set<string>();
export const markJobDeleted = (jti: string) => deletedJobs.add(jti);
export const isJobDeleted = (jti: string) => deletedJobs.has(jti);
