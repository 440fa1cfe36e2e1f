// The SMART Backend Services signing key: imports the configured PKCS#8 PEM (RS384 or ES384) and publishes its
// public half as a JWK Set (served at /.well-known/jwks.json by a route). Does not sign; token-client.ts does.
import { exportJWK, importPKCS8, importSPKI, type CryptoKey, type JWK } from 'jose';

export type SigningAlgorithm = 'RS384' | 'ES384';

export type SigningKey = { key: CryptoKey; alg: SigningAlgorithm };

// SMART Backend Services (section "Registering a client") requires servers to support RS384 and ES384; clients
// use one of them. We offer exactly these two.
const SUPPORTED_ALGORITHMS: SigningAlgorithm[] = ['RS384', 'ES384'];

/**
 * Imports a private key and derives its algorithm from the key itself: RSA (>= 2048 bits) gives RS384, EC P-384
 * gives ES384. Throws Error for any other key, or a PEM that is not unencrypted PKCS#8; config validation at
 * startup can call this to fail early. The message never contains key material.
 */
export async function importSigningKey(
  privateKeyPem: string,
  options: { extractable?: boolean } = {},
): Promise<SigningKey> {
  if (!/-----BEGIN PRIVATE KEY-----/.test(privateKeyPem)) {
    throw new Error(
      'The SMART private key must be an unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY"); convert it with `openssl pkcs8 -topk8 -nocrypt`',
    );
  }
  for (const alg of SUPPORTED_ALGORITHMS) {
    let key: CryptoKey;
    try {
      key = await importPKCS8(privateKeyPem, alg, { extractable: options.extractable ?? false });
    } catch {
      continue; // Wrong key type (or curve) for this algorithm: try the next one.
    }
    if (alg === 'RS384' && (key.algorithm as RsaHashedKeyAlgorithm).modulusLength < 2048) {
      throw new Error('The SMART private key is an RSA key shorter than 2048 bits; use 2048 bits or more');
    }
    return { key, alg };
  }
  throw new Error('The SMART private key must be an RSA key (RS384) or an EC P-384 key (ES384)');
}

// Only these members are public (RFC 7518 sections 6.2.1 and 6.3.1). Copying by allow-list means a private member
// (d, p, q, dp, dq, qi, oth) can never leak, whatever exportJWK returns.
const PUBLIC_MEMBERS = { RSA: ['kty', 'n', 'e'], EC: ['kty', 'crv', 'x', 'y'] } as const;

/** The public JWK Set for the configured key, with kid, alg and use 'sig'. Throws Error as importSigningKey does. */
export async function publicJwks(privateKeyPem: string, keyId: string): Promise<{ keys: JWK[] }> {
  return { keys: [await publicJwk(privateKeyPem, keyId)] };
}

/**
 * One public JWK (kid, alg, use 'sig') from a private PKCS#8 PEM or a public SPKI PEM ("BEGIN PUBLIC KEY"): a
 * previous key kept only to be published during a rotation's overlap need not keep its private half.
 */
export async function publicJwk(pem: string, keyId: string): Promise<JWK> {
  if (!keyId) throw new Error('publicJwks: keyId is required');
  const { key, alg } = /-----BEGIN PUBLIC KEY-----/.test(pem)
    ? await importVerifyingKey(pem)
    : await importSigningKey(pem, { extractable: true });
  const privateJwk = await exportJWK(key);
  const members = alg === 'RS384' ? PUBLIC_MEMBERS.RSA : PUBLIC_MEMBERS.EC;
  const jwk: JWK = {};
  for (const member of members) {
    const value = privateJwk[member];
    if (typeof value !== 'string') throw new Error(`publicJwks: the exported key lacks ${member}`);
    jwk[member] = value;
  }
  return { ...jwk, kid: keyId, alg, use: 'sig' };
}

async function importVerifyingKey(publicKeyPem: string): Promise<SigningKey> {
  for (const alg of SUPPORTED_ALGORITHMS) {
    try {
      return { key: await importSPKI(publicKeyPem, alg, { extractable: true }), alg };
    } catch {
      continue;
    }
  }
  throw new Error('The previous SMART key must be an RSA key (RS384) or an EC P-384 key (ES384)');
}
