import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, createLocalJWKSet, exportPKCS8, generateKeyPair, importPKCS8, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { importSigningKey, publicJwks } from './jwks';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

describe('publicJwks', () => {
  it.each([
    { alg: 'RS384' as const, members: ['alg', 'e', 'kid', 'kty', 'n', 'use'], kty: 'RSA' },
    { alg: 'ES384' as const, members: ['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y'], kty: 'EC' },
  ])('publishes only the public half of a $alg key, with kid, alg and use', async ({ alg, members, kty }) => {
    const pair = await generateKeyPair(alg, { extractable: true });
    const pem = await exportPKCS8(pair.privateKey);

    const jwks = await publicJwks(pem, 'kid-2025');

    expect(jwks.keys).toHaveLength(1);
    const [jwk] = jwks.keys;
    expect(Object.keys(jwk ?? {}).sort()).toEqual(members);
    expect(jwk).toMatchObject({ kty, kid: 'kid-2025', alg, use: 'sig' });
    for (const member of PRIVATE_MEMBERS) expect(jwk).not.toHaveProperty(member);
    expect(JSON.stringify(jwks)).not.toMatch(/"(d|p|q|dp|dq|qi)"/);

    // The published key verifies what the private key signs.
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg, kid: 'kid-2025' })
      .setIssuer('me')
      .sign(await importPKCS8(pem, alg));
    await expect(jwtVerify(jwt, createLocalJWKSet(jwks))).resolves.toMatchObject({ payload: { iss: 'me' } });
  });

  it('refuses an RSA key shorter than 2048 bits', async () => {
    const pem = String(
      generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    await expect(publicJwks(pem, 'k')).rejects.toThrow('shorter than 2048 bits');
  });

  it('refuses an EC key on another curve without echoing the key', async () => {
    const pem = String(
      generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    await expect(publicJwks(pem, 'k')).rejects.toMatchObject({
      message: 'The SMART private key must be an RSA key (RS384) or an EC P-384 key (ES384)',
    });
  });
});

describe('importSigningKey', () => {
  it('derives the algorithm from the key and keeps it non-extractable by default', async () => {
    const rsa = await importSigningKey(
      await exportPKCS8((await generateKeyPair('RS384', { extractable: true })).privateKey),
    );
    const ec = await importSigningKey(
      await exportPKCS8((await generateKeyPair('ES384', { extractable: true })).privateKey),
    );
    expect([rsa.alg, ec.alg]).toEqual(['RS384', 'ES384']);
    expect(rsa.key.extractable).toBe(false);
  });
});
