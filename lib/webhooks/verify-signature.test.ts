import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signBody, verifySignature } from './verify-signature';

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (length: number, value: number) => new Uint8Array(length).fill(value);

// RFC 4231 section 4, HMAC-SHA-256 results. Case 5 is omitted: it tests output truncated to 128 bits,
// which the signature contract never uses.
const RFC_4231: { name: string; key: Uint8Array; data: Uint8Array; hmacSha256: string }[] = [
  {
    name: 'test case 1 (20-byte key)',
    key: bytes(20, 0x0b),
    data: utf8('Hi There'),
    hmacSha256: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
  },
  {
    name: 'test case 2 (key shorter than the output)',
    key: utf8('Jefe'),
    data: utf8('what do ya want for nothing?'),
    hmacSha256: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  },
  {
    name: 'test case 3 (combined key and data of 0xaa and 0xdd)',
    key: bytes(20, 0xaa),
    data: bytes(50, 0xdd),
    hmacSha256: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
  },
  {
    name: 'test case 4 (25-byte key 0x01..0x19)',
    key: Uint8Array.from({ length: 25 }, (_, index) => index + 1),
    data: bytes(50, 0xcd),
    hmacSha256: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
  },
  {
    name: 'test case 6 (131-byte key, larger than the block)',
    key: bytes(131, 0xaa),
    data: utf8('Test Using Larger Than Block-Size Key - Hash Key First'),
    hmacSha256: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
  },
  {
    name: 'test case 7 (large key and large data)',
    key: bytes(131, 0xaa),
    data: utf8(
      'This is a test using a larger than block-size key and a larger than block-size data. ' +
        'The key needs to be hashed before being used by the HMAC algorithm.',
    ),
    hmacSha256: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
  },
];

// A fixed delivery, signed outside this code base (`openssl dgst -sha256 -hmac whsec_demo_2026` over the
// exact bytes below), so a bug shared by signBody and verifySignature cannot hide.
const KNOWN_SECRET = 'whsec_demo_2026';
const KNOWN_BODY =
  '{"id":"evt_0001","type":"payment.succeeded","createdAt":"2026-01-15T12:00:00Z","clinicId":"clinic_north",' +
  '"data":{"paymentId":"pay_0001","billId":"bill_n_001","amountCents":12500,"currency":"USD"}}';
const KNOWN_SIGNATURE = '26218dc5696941bfde17e3b76faf16e71fdb3bc99f4d5f20692954683fd07f43';

describe('signBody and verifySignature against RFC 4231', () => {
  it.each(RFC_4231)('$name', ({ key, data, hmacSha256 }) => {
    expect(signBody(data, key)).toBe(hmacSha256);
    expect(verifySignature(data, hmacSha256, [key])).toBe(true);
    expect(verifySignature(data, `sha256=${hmacSha256.toUpperCase()}`, [key])).toBe(true);
  });

  it('uses a string secret as its UTF-8 bytes (RFC 4231 case 2 with the key as text)', () => {
    const { data, hmacSha256 } = RFC_4231[1] as (typeof RFC_4231)[number];
    expect(signBody(data, 'Jefe')).toBe(hmacSha256);
    expect(verifySignature(data, hmacSha256, ['Jefe'])).toBe(true);
  });
});

describe('verifySignature', () => {
  const body = utf8(KNOWN_BODY);

  it('accepts the known signature of a fixed delivery', () => {
    expect(signBody(body, KNOWN_SECRET)).toBe(KNOWN_SIGNATURE);
    expect(verifySignature(body, KNOWN_SIGNATURE, [KNOWN_SECRET])).toBe(true);
  });

  it.each([
    ['bare lower-case hex', KNOWN_SIGNATURE],
    ['bare upper-case hex', KNOWN_SIGNATURE.toUpperCase()],
    ['mixed-case hex', KNOWN_SIGNATURE.replace(/[a-f]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c))],
    ['the sha256= prefix', `sha256=${KNOWN_SIGNATURE}`],
    ['the prefix with upper-case hex', `sha256=${KNOWN_SIGNATURE.toUpperCase()}`],
    ['an upper-case prefix', `SHA256=${KNOWN_SIGNATURE}`],
    ['surrounding whitespace', `  sha256=${KNOWN_SIGNATURE}\t`],
  ])('accepts %s', (_label, header) => {
    expect(verifySignature(body, header, [KNOWN_SECRET])).toBe(true);
  });

  it('refuses the same event re-serialised with other whitespace', () => {
    const reserialised = utf8(JSON.stringify(JSON.parse(KNOWN_BODY), null, 2));
    expect(JSON.parse(new TextDecoder().decode(reserialised))).toEqual(JSON.parse(KNOWN_BODY));
    expect(verifySignature(reserialised, KNOWN_SIGNATURE, [KNOWN_SECRET])).toBe(false);
    expect(verifySignature(utf8(`${KNOWN_BODY}\n`), KNOWN_SIGNATURE, [KNOWN_SECRET])).toBe(false);
  });

  it('refuses a body with one changed byte', () => {
    const tampered = utf8(KNOWN_BODY.replace('12500', '12501'));
    expect(verifySignature(tampered, KNOWN_SIGNATURE, [KNOWN_SECRET])).toBe(false);
  });

  it('refuses a signature made with another secret', () => {
    expect(verifySignature(body, KNOWN_SIGNATURE, ['whsec_other'])).toBe(false);
  });

  it.each<[string, string | null]>([
    ['no header', null],
    ['an empty header', ''],
    ['only the prefix', 'sha256='],
    ['one hex digit short', KNOWN_SIGNATURE.slice(1)],
    ['one hex digit long', `${KNOWN_SIGNATURE}0`],
    ['a truncated 128-bit signature', KNOWN_SIGNATURE.slice(0, 32)],
    ['a non-hex character', `${KNOWN_SIGNATURE.slice(0, 63)}g`],
    ['base64 instead of hex', Buffer.from(KNOWN_SIGNATURE, 'hex').toString('base64')],
    ['a doubled prefix', `sha256=sha256=${KNOWN_SIGNATURE}`],
    ['another algorithm', `sha512=${KNOWN_SIGNATURE}`],
    ['the prefix without "="', `sha256${KNOWN_SIGNATURE}`],
    ['two signatures in one header', `${KNOWN_SIGNATURE},${KNOWN_SIGNATURE}`],
    ['inner whitespace', `sha256= ${KNOWN_SIGNATURE}`],
    ['garbage', 'not a signature at all'],
    ['a huge header', 'a'.repeat(100_000)],
  ])('refuses %s without throwing', (_label, header) => {
    expect(() => verifySignature(body, header, [KNOWN_SECRET])).not.toThrow();
    expect(verifySignature(body, header, [KNOWN_SECRET])).toBe(false);
  });

  it('accepts either secret while they rotate, whichever order they are listed in', () => {
    const signedWithNew = signBody(body, 'whsec_new');
    expect(verifySignature(body, KNOWN_SIGNATURE, ['whsec_new', KNOWN_SECRET])).toBe(true);
    expect(verifySignature(body, signedWithNew, ['whsec_new', KNOWN_SECRET])).toBe(true);
    expect(verifySignature(body, signedWithNew, [KNOWN_SECRET, 'whsec_new'])).toBe(true);
    expect(verifySignature(body, signedWithNew, [KNOWN_SECRET])).toBe(false);
  });

  it('verifies nothing with an empty secret list', () => {
    expect(verifySignature(body, KNOWN_SIGNATURE, [])).toBe(false);
  });

  it('never treats an empty secret as a key', () => {
    const signedWithEmptyKey = signBody(body, '');
    expect(verifySignature(body, signedWithEmptyKey, [''])).toBe(false);
    expect(verifySignature(body, signedWithEmptyKey, [new Uint8Array(0), KNOWN_SECRET])).toBe(false);
  });

  it('accepts what signBody signs, for any body and secret, and nothing signed under another secret', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 512 }),
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        (raw, secret, otherSecret) => {
          const signature = signBody(raw, secret);
          expect(signature).toMatch(/^[0-9a-f]{64}$/);
          expect(verifySignature(raw, signature, [secret])).toBe(true);
          expect(verifySignature(raw, `sha256=${signature}`, [otherSecret, secret])).toBe(true);
          fc.pre(otherSecret !== secret);
          expect(verifySignature(raw, signature, [otherSecret])).toBe(false);
        },
      ),
    );
  });

  it('never throws, whatever the header', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (header) => {
        expect(typeof verifySignature(body, header, [KNOWN_SECRET])).toBe('boolean');
      }),
    );
  });
});
