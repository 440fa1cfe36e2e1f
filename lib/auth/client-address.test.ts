// The throttle key: the socket's peer (recorded by the server), or with TRUSTED_PROXY_HOPS the X-Forwarded-For entry
// that many hops left of it; IPv6 by its /64.
import { describe, expect, it } from 'vitest';
import { PEER_ADDRESS_HEADER, readClientAddress } from './client-address';

const from = (peer: string | undefined, forwardedFor?: string, hops = 0) =>
  readClientAddress(
    new Headers({
      ...(peer !== undefined && { [PEER_ADDRESS_HEADER]: peer }),
      ...(forwardedFor !== undefined && { 'x-forwarded-for': forwardedFor }),
    }),
    hops,
  );

describe('readClientAddress', () => {
  it('with no trusted proxy takes the socket peer and ignores every X-Forwarded-For entry', () => {
    expect(from('203.0.113.9')).toBe('203.0.113.9');
    expect(from('203.0.113.9', 'random-1')).toBe('203.0.113.9');
    expect(from('203.0.113.9', '10.0.0.1, 198.51.100.7')).toBe('203.0.113.9');
  });

  it('with trusted proxies takes the entry that many hops left of the peer', () => {
    // One proxy (10.0.0.2) appended the client it saw (198.51.100.7); the client had sent "spoofed".
    expect(from('10.0.0.2', 'spoofed, 198.51.100.7', 1)).toBe('198.51.100.7');
    expect(from('10.0.0.3', 'spoofed, 198.51.100.7, 10.0.0.2', 2)).toBe('198.51.100.7');
    // Entries a client prepends never move the key.
    expect(from('10.0.0.2', 'random-1, 198.51.100.7', 1)).toBe(from('10.0.0.2', 'random-2,198.51.100.7', 1));
    // Fewer entries than hops: the leftmost, or the peer itself.
    expect(from('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
    expect(from('10.0.0.2', '198.51.100.7', 3)).toBe('198.51.100.7');
  });

  it('reads IPv4-mapped IPv6 as IPv4 and counts IPv6 by its /64', () => {
    expect(from('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(from('2001:db8:1:2::abcd')).toBe('2001:db8:1:2::/64');
    expect(from('2001:db8:1:2:ffff:ffff:ffff:1')).toBe('2001:db8:1:2::/64');
    expect(from('2001:0DB8:0001:0002:0:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(from('::1')).toBe('0:0:0:0::/64');
  });

  it('shares one key when the server recorded no peer, and bounds what it keeps', () => {
    expect(from(undefined)).toBe('unknown');
    expect(from(undefined, '203.0.113.9')).toBe('unknown');
    expect(from(' ')).toBe('unknown');
    expect(from('x'.repeat(500)).length).toBeLessThanOrEqual(64);
  });
});
