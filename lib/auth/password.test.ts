import { describe, expect, it } from 'vitest';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './password';

describe('hashPassword / verifyPassword', () => {
  it('verifies the password a hash was made from', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
  });

  it('refuses a wrong password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('gives two different hashes for one password (fresh salt each time)', async () => {
    const [a, b] = await Promise.all([hashPassword('same password'), hashPassword('same password')]);
    expect(a).not.toBe(b);
    expect(a.split('$')[4]).not.toBe(b.split('$')[4]);
  });

  it('matches a password typed in another Unicode normal form', async () => {
    const stored = await hashPassword('caf\u00e9');
    expect(await verifyPassword('cafe\u0301', stored)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['not scrypt', 'bcrypt$10$abc'],
    ['too few parts', 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0'],
    ['too many parts', `${'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA==$'}${'A'.repeat(43)}=$x`],
    ['N not a power of two', `scrypt$30000$8$1$c2FsdHNhbHRzYWx0c2FsdA==$${'A'.repeat(43)}=`],
    ['N absurdly large', `scrypt$1073741824$8$1$c2FsdHNhbHRzYWx0c2FsdA==$${'A'.repeat(43)}=`],
    ['r not a number', `scrypt$32768$x$1$c2FsdHNhbHRzYWx0c2FsdA==$${'A'.repeat(43)}=`],
    ['p zero', `scrypt$32768$8$0$c2FsdHNhbHRzYWx0c2FsdA==$${'A'.repeat(43)}=`],
    ['salt not base64', `scrypt$32768$8$1$not*base64!$${'A'.repeat(43)}=`],
    ['hash empty', 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA==$'],
    ['hash too short', 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA==$AAAA'],
  ])('returns false, without throwing, for a malformed stored value (%s)', async (_name, stored) => {
    await expect(verifyPassword('anything', stored)).resolves.toBe(false);
  });

  it('returns false for a stored value that is not a string at all', async () => {
    await expect(verifyPassword('anything', null as unknown as string)).resolves.toBe(false);
  });

  it('has a dummy hash that is well formed, uses the current parameters and matches no likely password', async () => {
    const current = (await hashPassword('x')).split('$').slice(0, 4).join('$');
    expect(DUMMY_PASSWORD_HASH.split('$').slice(0, 4).join('$')).toBe(current);
    expect(DUMMY_PASSWORD_HASH.split('$')).toHaveLength(6);
    expect(await verifyPassword('', DUMMY_PASSWORD_HASH)).toBe(false);
    expect(await verifyPassword('password', DUMMY_PASSWORD_HASH)).toBe(false);
  });
});
