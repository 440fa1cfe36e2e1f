// The throttle key: the nearest X-Forwarded-For hop (the one our server or proxy wrote), IPv6 by its /64.
import { describe, expect, it } from 'vitest';
import { readClientAddress } from './client-address';

const from = (value?: string) =>
  readClientAddress(new Headers(value === undefined ? {} : { 'x-forwarded-for': value }));

describe('readClientAddress', () => {
  it('takes the rightmost hop, so entries a client prepends cannot pick a fresh bucket', () => {
    expect(from('203.0.113.9')).toBe('203.0.113.9');
    expect(from('10.0.0.1, 198.51.100.7, 203.0.113.9')).toBe('203.0.113.9');
    expect(from('random-1,203.0.113.9')).toBe(from('random-2, 203.0.113.9'));
  });

  it('reads IPv4-mapped IPv6 as IPv4 and counts IPv6 by its /64', () => {
    expect(from('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(from('2001:db8:1:2::abcd')).toBe('2001:db8:1:2::/64');
    expect(from('2001:db8:1:2:ffff:ffff:ffff:1')).toBe('2001:db8:1:2::/64');
    expect(from('2001:0DB8:0001:0002:0:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(from('::1')).toBe('0:0:0:0::/64');
  });

  it('falls back to one shared key without the header, and bounds what it keeps', () => {
    expect(from()).toBe('unknown');
    expect(from(' , ')).toBe('unknown');
    expect(from('x'.repeat(500)).length).toBeLessThanOrEqual(64);
  });
});
