// Test helpers for the auth factor tests: users with MFA already on (secret sealed as the app seals it), step-up
// through the real endpoint, and reading a claim's payload without trusting our own verifier.
import { randomBytes } from 'node:crypto';
import type { Db } from '@/lib/db';
import { seal } from '@/lib/crypto/seal';
import { mfaSealContext } from '@/lib/auth/second-factor';
import { generateBackupCodes, hashBackupCode } from '@/lib/auth/backup-codes';
import { TEST_SECRETS, type TestApp } from './app';
import { createTenant, createUser, type TestTenant, type TestUser } from './factories';
import { signIn, type HttpClient } from './http';

export { totpCode } from '@/e2e/totp-code';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A random 160-bit base32 secret, made here rather than by the code under test. */
export function randomBase32Secret(): string {
  return [...randomBytes(32)].map((b) => BASE32[b % 32]).join('');
}

export const sealKey = () => Buffer.from(TEST_SECRETS.SEAL_KEY, 'base64');

export type MfaUser = TestUser & { secret: string; backupCodes: string[] };

/** A user in its own tenant with MFA on, as if enrolled: sealed secret and 10 hashed backup codes. */
export async function createMfaUser(db: Db, tenant?: TestTenant): Promise<MfaUser> {
  const user = await createUser(db, tenant ?? (await createTenant(db)));
  const secret = randomBase32Secret();
  const backupCodes = generateBackupCodes();
  await db.user.update({
    where: { id: user.id },
    data: { mfaEnabled: true, mfaSecretSealed: seal(secret, sealKey(), mfaSealContext(user.id)) },
  });
  await db.backupCode.createMany({
    data: backupCodes.map((code) => ({ userId: user.id, codeHash: hashBackupCode(code) })),
  });
  return { ...user, secret, backupCodes };
}

/** A fresh tenant and user signed in with a password (no MFA). */
export async function signedInUser(app: TestApp): Promise<{ user: TestUser; client: HttpClient }> {
  const user = await createUser(app.db, await createTenant(app.db));
  return { user, client: await signIn(app, user.email, user.password) };
}

/** Steps up with the password; the client's jar then carries svc-step-up. Returns the token. */
export async function stepUpWithPassword(client: HttpClient, password: string): Promise<string> {
  const res = await client.post('/api/auth/step-up', { factor: 'password', password });
  if (res.status !== 200) throw new Error(`step-up failed: ${res.status} ${res.text}`);
  return res.body.stepUpToken;
}

/** The JSON payload of a JWT, decoded by hand (no signature check: for assertions only). */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

/** Parses one Set-Cookie line into name, value and lower-cased attributes. */
export function parseSetCookie(line: string): {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
} {
  const [pair, ...rest] = line.split(';');
  const eq = pair!.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const [k, ...v] = part.trim().split('=');
    attributes[k!.toLowerCase()] = v.length ? v.join('=') : true;
  }
  return { name: pair!.slice(0, eq).trim(), value: pair!.slice(eq + 1).trim(), attributes };
}

export function setCookie(headers: Headers, name: string) {
  const line = headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return line ? parseSetCookie(line) : undefined;
}
