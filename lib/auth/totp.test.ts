import { randomBytes } from 'node:crypto';
import { generate, generateSecret, verify } from 'otplib';
import { describe, expect, it } from 'vitest';
import { createTotpSecret, decodeBase32, timeStepAt, totpAt, totpUri, verifyTotp } from './totp';

// RFC 6238 Appendix B, SHA-1 column. The seed is the ASCII string "12345678901234567890".
const rfcSecretBytes = Buffer.from('12345678901234567890', 'ascii');
// Base32 of the same 20 bytes, so verifyTotp (which takes base32) can be driven with the RFC vectors too.
const rfcSecretBase32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const rfcVectors: Array<[unixSeconds: number, totp8: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

const at = (unixSeconds: number) => new Date(unixSeconds * 1000);

describe('totpAt (RFC 6238 known answers)', () => {
  it('decodes the base32 form of the RFC seed to the same bytes', () => {
    expect(decodeBase32(rfcSecretBase32).equals(rfcSecretBytes)).toBe(true);
  });

  it.each(rfcVectors)('gives the Appendix B SHA-1 value at T=%i', (unixSeconds, expected) => {
    expect(totpAt(rfcSecretBytes, timeStepAt(at(unixSeconds)), 8)).toBe(expected);
  });

  it.each(rfcVectors)(
    'accepts the 6-digit form of the Appendix B value at T=%i through verifyTotp',
    async (unixSeconds, expected) => {
      const result = await verifyTotp({
        secret: rfcSecretBase32,
        token: expected.slice(-6),
        now: at(unixSeconds),
        lastTimeStep: null,
      });
      expect(result).toEqual({ valid: true, timeStep: BigInt(Math.floor(unixSeconds / 30)) });
    },
  );

  it('refuses a negative step and unsupported digit counts', () => {
    expect(() => totpAt(rfcSecretBytes, -1n, 6)).toThrow(RangeError);
    expect(() => totpAt(rfcSecretBytes, 1n, 5)).toThrow(RangeError);
    expect(() => totpAt(rfcSecretBytes, 1n, 9)).toThrow(RangeError);
  });
});

describe('equivalence with otplib', () => {
  it('generates the same codes as otplib for random secrets and times', async () => {
    for (let i = 0; i < 50; i += 1) {
      const secret = generateSecret();
      const epochSeconds = randomBytes(4).readUInt32BE() + (i % 2 === 0 ? 0 : 4_000_000_000);
      const ours = totpAt(decodeBase32(secret), timeStepAt(at(epochSeconds)), 6);
      expect(ours).toBe(await generate({ secret, epoch: epochSeconds }));
    }
  });

  it('reports the same time step as otplib for a code it accepts', async () => {
    const secret = createTotpSecret();
    const epochSeconds = 1_700_000_015;
    const token = await generate({ secret, epoch: epochSeconds - 30 });
    const ours = await verifyTotp({ secret, token, now: at(epochSeconds), lastTimeStep: null });
    const theirs = await verify({ secret, token, epoch: epochSeconds, epochTolerance: 30 });
    expect(theirs.valid).toBe(true);
    expect(ours).toEqual({ valid: true, timeStep: BigInt((theirs as { timeStep: number }).timeStep) });
  });

  it('accepts codes otplib generates for a secret from createTotpSecret', async () => {
    const secret = createTotpSecret();
    expect(decodeBase32(secret)).toHaveLength(20);
    const now = new Date();
    const token = await generate({ secret, epoch: Math.floor(now.getTime() / 1000) });
    expect((await verifyTotp({ secret, token, now, lastTimeStep: null })).valid).toBe(true);
  });
});

describe('verifyTotp window and replay', () => {
  const secret = createTotpSecret();
  const secretBytes = decodeBase32(secret);
  const now = at(1_700_000_015); // 15 s into its step, so ±1 step is unambiguous
  const currentStep = timeStepAt(now);
  const codeFor = (offset: bigint) => totpAt(secretBytes, currentStep + offset, 6);

  it.each([-1n, 0n, 1n])('accepts the code of step %i relative to now and returns that step', async (offset) => {
    const token = codeFor(offset);
    // Skip the (1 in a million) case where a neighbouring step has the same code.
    if ([-1n, 0n, 1n].some((other) => other !== offset && codeFor(other) === token)) return;
    expect(await verifyTotp({ secret, token, now, lastTimeStep: null })).toEqual({
      valid: true,
      timeStep: currentStep + offset,
    });
  });

  it.each([-3n, -2n, 2n, 3n])('refuses the code of step %i relative to now', async (offset) => {
    const token = codeFor(offset);
    if ([-1n, 0n, 1n].some((other) => codeFor(other) === token)) return;
    expect(await verifyTotp({ secret, token, now, lastTimeStep: null })).toEqual({ valid: false, reason: 'invalid' });
  });

  it('refuses the same code a second time once its step is stored', async () => {
    const token = codeFor(0n);
    const first = await verifyTotp({ secret, token, now, lastTimeStep: null });
    expect(first).toEqual({ valid: true, timeStep: currentStep });
    if (!first.valid) return;
    expect(await verifyTotp({ secret, token, now, lastTimeStep: first.timeStep })).toEqual({
      valid: false,
      reason: 'replayed',
    });
    // Still refused 20 s later, while the code is inside the window.
    expect(await verifyTotp({ secret, token, now: at(1_700_000_035), lastTimeStep: first.timeStep })).toEqual({
      valid: false,
      reason: 'replayed',
    });
  });

  it('refuses an earlier step after a later one was accepted', async () => {
    const later = await verifyTotp({ secret, token: codeFor(1n), now, lastTimeStep: null });
    expect(later).toEqual({ valid: true, timeStep: currentStep + 1n });
    if (!later.valid) return;
    for (const offset of [0n, -1n]) {
      expect(await verifyTotp({ secret, token: codeFor(offset), now, lastTimeStep: later.timeStep })).toEqual({
        valid: false,
        reason: 'replayed',
      });
    }
  });

  it('accepts the next step after an earlier one was accepted', async () => {
    expect(await verifyTotp({ secret, token: codeFor(1n), now, lastTimeStep: currentStep })).toEqual({
      valid: true,
      timeStep: currentStep + 1n,
    });
  });

  it.each([
    ['empty', ''],
    ['five digits', '12345'],
    ['seven digits', '1234567'],
    ['letters', 'abcdef'],
    ['spaces inside', '123 456'],
    ['leading space', ' 123456'],
    ['plus sign', '+12345'],
    ['non-ASCII digits', '١٢٣٤٥٦'],
    ['a backup code', 'abcde-fghjk'],
  ])('treats a garbage token as invalid (%s)', async (_name, token) => {
    expect(await verifyTotp({ secret, token, now, lastTimeStep: null })).toEqual({ valid: false, reason: 'invalid' });
  });

  it('treats a well-formed but wrong code as invalid', async () => {
    const wrong = [...Array(1000).keys()]
      .map((n) => String(n).padStart(6, '0'))
      .find((candidate) => ![-1n, 0n, 1n].some((offset) => codeFor(offset) === candidate))!;
    expect(await verifyTotp({ secret, token: wrong, now, lastTimeStep: null })).toEqual({
      valid: false,
      reason: 'invalid',
    });
  });

  it('handles the very first time steps without going negative', async () => {
    const token = totpAt(secretBytes, 0n, 6);
    expect(await verifyTotp({ secret, token, now: at(5), lastTimeStep: null })).toEqual({ valid: true, timeStep: 0n });
  });

  it('throws RangeError for a corrupted stored secret or an invalid date', async () => {
    await expect(verifyTotp({ secret: 'not base32!', token: '123456', now, lastTimeStep: null })).rejects.toThrow(
      RangeError,
    );
    await expect(
      verifyTotp({ secret, token: '123456', now: new Date(Number.NaN), lastTimeStep: null }),
    ).rejects.toThrow(RangeError);
  });
});

describe('decodeBase32', () => {
  it('ignores case, spaces and padding as authenticator apps do', () => {
    expect(decodeBase32('gezd gnbv gy3t qojq gezd gnbv gy3t qojq').equals(rfcSecretBytes)).toBe(true);
    expect(decodeBase32('MZXW6===').toString('ascii')).toBe('foo');
  });

  it.each(['', '   ', 'ABC1', 'ABC8', 'AB!C'])('refuses %j', (input) => {
    expect(() => decodeBase32(input)).toThrow(RangeError);
  });
});

describe('createTotpSecret / totpUri', () => {
  it('creates distinct 160-bit base32 secrets', () => {
    const a = createTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]+=*$/);
    expect(decodeBase32(a)).toHaveLength(20);
    expect(createTotpSecret()).not.toBe(a);
  });

  it('builds an otpauth://totp URI carrying the secret, issuer and account', () => {
    const secret = createTotpSecret();
    const uri = new URL(totpUri({ secret, accountName: 'staff@clinic.test', issuer: 'Clinic Billing' }));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Clinic Billing:staff@clinic.test');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Clinic Billing');
  });
});
