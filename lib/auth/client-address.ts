// The client address a sign-in attempt is counted under (the per-address throttle). Owns reading it from the
// request headers; it is a throttle key, never an identity or an authorisation input.
//
// Route handlers do not see the socket's peer address. Next's server writes it into X-Forwarded-For when the
// request carries none, and a reverse proxy in front (which an https APP_URL needs: `next start` serves plain
// http) appends the peer it saw. So the RIGHTMOST entry is the one hop this deployment vouches for; every entry
// to its left is whatever the client sent. Taking the leftmost would let a client pick a fresh throttle bucket
// per request. Behind several proxies the rightmost entry is the inner proxy's peer (a shared edge), which
// throttles more coarsely but never more loosely. Exposed without a proxy, a client-supplied header reaches us
// unchanged: the per-account reservation (sign-in.ts) still bounds every account.
import { isIPv6 } from 'node:net';

const MAX_ADDRESS_CHARS = 64;

export function readClientAddress(headers: Headers): string {
  const hops = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const nearest = hops.at(-1)?.slice(0, MAX_ADDRESS_CHARS).toLowerCase();
  if (!nearest) return 'unknown';
  const unmapped = nearest.startsWith('::ffff:') && nearest.includes('.') ? nearest.slice(7) : nearest;
  // One IPv6 subscriber holds a whole /64: count the prefix, or every request could come from a new address.
  return isIPv6(unmapped) ? `${ipv6Prefix64(unmapped)}::/64` : unmapped;
}

function ipv6Prefix64(address: string): string {
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+/, '') || '0')
    .join(':');
}
