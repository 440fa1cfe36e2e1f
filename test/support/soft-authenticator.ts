// A software WebAuthn authenticator for HTTP tests: a P-256 key from node:crypto, `fmt: none` attestation and
// ES256 assertions, encoded by hand (a tiny CBOR writer for the few types WebAuthn needs) so that the server's
// @simplewebauthn verification runs against bytes it did not produce itself.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Cbor[] | Map<number | string, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

/** RFC 8949 encoding of unsigned/negative integers, byte and text strings, arrays and maps. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

// authenticatorData flags (WebAuthn §6.1): user present, user verified, attested credential data included.
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export type SoftAuthenticator = {
  credentialId: string;
  counter: number;
  /** navigator.credentials.create() as @simplewebauthn/browser would send it. */
  attest(options: { challenge: string; origin: string; rpId?: string; userVerified?: boolean }): RegistrationJson;
  /** navigator.credentials.get() over the challenge; the counter moves forward on each call. */
  assert(options: { challenge: string; origin: string; rpId?: string; userVerified?: boolean }): AuthenticationJson;
};

export type RegistrationJson = {
  id: string;
  rawId: string;
  type: 'public-key';
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
};
export type AuthenticationJson = {
  id: string;
  rawId: string;
  type: 'public-key';
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
  response: { clientDataJSON: string; authenticatorData: string; signature: string };
};

export function createSoftAuthenticator(): SoftAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialIdBytes = randomBytes(32);
  const jwk = publicKey.export({ format: 'jwk' });
  // COSE_Key (RFC 9053): kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
  const coseKey = cbor(
    new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
  const auth: SoftAuthenticator = {
    credentialId: b64url(credentialIdBytes),
    counter: 0,
    attest({ challenge, origin, rpId = 'localhost', userVerified = true }) {
      const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge, origin, crossOrigin: false });
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialIdBytes.length);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([UP | (userVerified ? UV : 0) | AT]),
        Buffer.alloc(4),
        Buffer.alloc(16),
        idLength,
        credentialIdBytes,
        coseKey,
      ]);
      const attestationObject = cbor(
        new Map<string, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      return {
        id: auth.credentialId,
        rawId: auth.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      };
    },
    assert({ challenge, origin, rpId = 'localhost', userVerified = true }) {
      auth.counter += 1;
      const clientDataJSON = JSON.stringify({ type: 'webauthn.get', challenge, origin, crossOrigin: false });
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(auth.counter);
      const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | (userVerified ? UV : 0)]), counter]);
      const signature = signWith(privateKey, Buffer.concat([authData, sha256(clientDataJSON)]));
      return {
        id: auth.credentialId,
        rawId: auth.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
      };
    },
  };
  return auth;
}

/** ES256 as WebAuthn carries it: an ASN.1 DER ECDSA signature over SHA-256. */
function signWith(key: KeyObject, data: Buffer): Buffer {
  return sign('sha256', data, key);
}
