// Key rotation overlap (issue #32 item 5): an assertion signed with the previous key verifies against the JWK Set
// we serve during the 7 days after SMART_KEY_ROTATED_AT, and stops verifying after; the current key always does.
// Real keys, real signatures, the config parsed from the environment variables an operator sets.
import { SignJWT, createLocalJWKSet, exportPKCS8, exportSPKI, generateKeyPair, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../config';
import { serveJwks } from './serve-jwks';

const ROTATED_AT = '2026-11-20T12:00:00Z';
const DAY = 24 * 60 * 60_000;
const at = (ms: number) => () => new Date(Date.parse(ROTATED_AT) + ms);

let oldKey: { privateKey: CryptoKey; privatePem: string; publicPem: string };
let newPem: string;

beforeAll(async () => {
  const old = await generateKeyPair('RS384', { extractable: true });
  oldKey = {
    privateKey: old.privateKey,
    privatePem: await exportPKCS8(old.privateKey),
    publicPem: await exportSPKI(old.publicKey),
  };
  newPem = await exportPKCS8((await generateKeyPair('ES384', { extractable: true })).privateKey);
});

function config(previousPem: string | undefined) {
  return parseConfig({
    SVC_ENV: 'sandbox',
    SMART_CLIENT_ID: 'our-client',
    SMART_PRIVATE_KEY: newPem,
    SMART_KEY_ID: 'key-2026-11',
    ...(previousPem && {
      SMART_PREVIOUS_KEY: previousPem,
      SMART_PREVIOUS_KEY_ID: 'key-2026-05',
      SMART_KEY_ROTATED_AT: ROTATED_AT,
    }),
  });
}

const signedWithOldKey = () =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'RS384', kid: 'key-2026-05', typ: 'JWT' })
    .setIssuer('our-client')
    .setSubject('our-client')
    .setAudience('https://ehr.example/token')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(oldKey.privateKey);

async function verifiesAgainstServedSet(
  clockMs: number,
  previousPem: string | null = oldKey.publicPem,
): Promise<boolean> {
  const served = await serveJwks(config(previousPem ?? undefined), at(clockMs));
  try {
    await jwtVerify(await signedWithOldKey(), createLocalJWKSet(served), { audience: 'https://ehr.example/token' });
    return true;
  } catch {
    return false;
  }
}

describe('the JWK Set during a key rotation', () => {
  it('serves the previous key beside the current one, so an old assertion verifies during the 7 days', async () => {
    const served = await serveJwks(config(oldKey.publicPem), at(6 * DAY));
    expect(served.keys.map((k) => [k.kid, k.alg])).toEqual([
      ['key-2026-11', 'ES384'],
      ['key-2026-05', 'RS384'],
    ]);
    expect(await verifiesAgainstServedSet(0)).toBe(true);
    expect(await verifiesAgainstServedSet(7 * DAY - 1000)).toBe(true);
  });

  it('drops the previous key 7 days after the rotation: the old assertion no longer verifies', async () => {
    expect(await verifiesAgainstServedSet(7 * DAY)).toBe(false);
    expect(await verifiesAgainstServedSet(30 * DAY)).toBe(false);
    const served = await serveJwks(config(oldKey.publicPem), at(7 * DAY));
    expect(served.keys.map((k) => k.kid)).toEqual(['key-2026-11']);
  });

  it('accepts the previous key as its old private PEM too, publishing only the public half', async () => {
    expect(await verifiesAgainstServedSet(DAY, oldKey.privatePem)).toBe(true);
    const served = await serveJwks(config(oldKey.privatePem), at(DAY));
    expect(Object.keys(served.keys[1]!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });

  it('serves only the current key without a previous one configured', async () => {
    const served = await serveJwks(config(undefined), at(0));
    expect(served.keys.map((k) => k.kid)).toEqual(['key-2026-11']);
    expect(await verifiesAgainstServedSet(0, null)).toBe(false);
  });

  it('refuses a half or malformed previous-key configuration at start-up', () => {
    const base = { SVC_ENV: 'sandbox', SMART_CLIENT_ID: 'c', SMART_PRIVATE_KEY: newPem, SMART_KEY_ID: 'k2' };
    const half = parseConfig({ ...base, SMART_PREVIOUS_KEY: oldKey.publicPem });
    expect(half.smart?.previous).toBeUndefined();
    expect(half.warnings.join(' ')).toContain('SMART_PREVIOUS_KEY_ID, SMART_KEY_ROTATED_AT not set');
    const previous = { SMART_PREVIOUS_KEY: oldKey.publicPem, SMART_PREVIOUS_KEY_ID: 'k1' };
    expect(() => parseConfig({ ...base, ...previous, SMART_KEY_ROTATED_AT: 'last week' })).toThrow(ConfigError);
    expect(() =>
      parseConfig({ ...base, ...previous, SMART_PREVIOUS_KEY_ID: 'k2', SMART_KEY_ROTATED_AT: ROTATED_AT }),
    ).toThrow('SMART_PREVIOUS_KEY_ID must differ from SMART_KEY_ID');
  });
});
