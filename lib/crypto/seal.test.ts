import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSealKey, seal, unseal } from './seal';

const key = randomBytes(32);
const otherKey = randomBytes(32);
const secret = 'JBSWY3DPEHPK3PXP-totp-secret';

describe('parseSealKey', () => {
  it('decodes a 32-byte base64 key', () => {
    const raw = randomBytes(32);
    expect(parseSealKey(raw.toString('base64')).equals(raw)).toBe(true);
    expect(parseSealKey(raw.toString('base64url')).equals(raw)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['16 bytes', randomBytes(16).toString('base64')],
    ['31 bytes', randomBytes(31).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['64 bytes', randomBytes(64).toString('base64')],
    ['not base64', '!'.repeat(44)],
    [
      '32-byte key with a stray character',
      `${randomBytes(32).toString('base64').slice(0, 20)}*${randomBytes(32).toString('base64').slice(20)}`,
    ],
  ])('throws RangeError for %s', (_name, input) => {
    expect(() => parseSealKey(input)).toThrow(RangeError);
  });
});

describe('seal / unseal', () => {
  it('round-trips, including non-ASCII and empty plaintexts', () => {
    for (const plaintext of [secret, '', 'pässwörd ✓ 🔑', 'x'.repeat(10_000)]) {
      expect(unseal(seal(plaintext, key, 'mfa:user-1'), key, 'mfa:user-1')).toBe(plaintext);
    }
  });

  it('produces v1.<iv>.<tag>.<ciphertext> that does not contain the plaintext', () => {
    const sealed = seal(secret, key, 'mfa:user-1');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64url'));
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64'));
  });

  it('uses a fresh IV each time, so sealing twice gives different text', () => {
    expect(seal(secret, key, 'mfa:user-1')).not.toBe(seal(secret, key, 'mfa:user-1'));
  });

  it('refuses a value sealed under another key', () => {
    expect(() => unseal(seal(secret, key, 'mfa:user-1'), otherKey, 'mfa:user-1')).toThrow();
  });

  it('refuses a value copied to another context (row)', () => {
    const sealed = seal(secret, key, 'mfa:user-1');
    expect(() => unseal(sealed, key, 'mfa:user-2')).toThrow();
    expect(() => unseal(sealed, key, 'oauth:user-1')).toThrow();
    expect(() => unseal(sealed, key, '')).toThrow();
  });

  it('refuses the value after any single character of it is changed', () => {
    const sealed = seal(secret, key, 'mfa:user-1');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < sealed.length; i += 1) {
      const current = sealed[i]!;
      if (current === '.') continue;
      // Try two replacements per position: the next character in the alphabet and one far away.
      const at = alphabet.indexOf(current);
      for (const replacement of [alphabet[(at + 1) % 64]!, alphabet[(at + 32) % 64]!]) {
        const tampered = sealed.slice(0, i) + replacement + sealed.slice(i + 1);
        expect(() => unseal(tampered, key, 'mfa:user-1'), `position ${i} -> ${replacement}`).toThrow();
      }
    }
  });

  it.each([
    ['other version', (s: string) => s.replace(/^v1\./, 'v2.')],
    ['missing part', (s: string) => s.split('.').slice(0, 3).join('.')],
    ['extra part', (s: string) => `${s}.AAAA`],
    [
      'truncated tag',
      (s: string) => {
        const p = s.split('.');
        p[2] = p[2]!.slice(0, 16);
        return p.join('.');
      },
    ],
    ['truncated ciphertext', (s: string) => s.slice(0, -2)],
    ['appended ciphertext', (s: string) => `${s}AA`],
    [
      'swapped iv and tag',
      (s: string) => {
        const p = s.split('.');
        return [p[0], p[2], p[1], p[3]].join('.');
      },
    ],
    ['empty string', () => ''],
  ])('refuses a malformed or tampered value (%s)', (_name, mutate) => {
    expect(() => unseal(mutate(seal(secret, key, 'mfa:user-1')), key, 'mfa:user-1')).toThrow();
  });

  it('refuses a ciphertext transplanted from another sealed value', () => {
    const a = seal('aaaaaaaaaaaaaaaaaaaa', key, 'mfa:user-1').split('.');
    const b = seal('bbbbbbbbbbbbbbbbbbbb', key, 'mfa:user-1').split('.');
    expect(() => unseal([a[0], a[1], a[2], b[3]].join('.'), key, 'mfa:user-1')).toThrow();
  });

  it('does not put the plaintext or key in the error message', () => {
    try {
      unseal(seal(secret, key, 'mfa:user-1'), otherKey, 'mfa:user-1');
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain(secret);
      expect(String(error)).not.toContain(key.toString('base64'));
    }
  });

  it('refuses a key of the wrong length', () => {
    expect(() => seal(secret, randomBytes(16), 'mfa:user-1')).toThrow(RangeError);
    expect(() => unseal(seal(secret, key, 'c'), randomBytes(16), 'c')).toThrow(RangeError);
  });
});
