// The client address a sign-in attempt is counted under (the per-address throttle). Owns reading it from the
// request headers; it is a throttle key, never an identity or an authorisation input.
//
// The socket's peer is the only address this server knows first-hand. Next 16 gives a route handler no socket and
// writes the peer into X-Forwarded-For only when the client sent none (`??=`), so without a proxy a client-sent
// X-Forwarded-For would pick the bucket. lib/http/install-server-hooks.ts therefore records the peer in its own
// header (PEER_ADDRESS_HEADER, overwritten whatever the client sent), and the chain read here is the
// X-Forwarded-For entries followed by that peer. TRUSTED_PROXY_HOPS (lib/config.ts) says how many proxies of this
// deployment stand in front, each appending the address it saw: the client is the entry that many hops left of the
// peer. With 0 it is the peer itself and every X-Forwarded-For entry is ignored, since anything in it may be the
// client's. A request with fewer entries than hops (it reached us past the proxies) is counted by its leftmost.
// Without the recorded peer (the hook did not run) every attempt shares one key: tighter, never looser.
import { isIPv6 } from 'node:net';

/** Written by the server from the socket (lib/http/install-server-hooks.ts), never taken from the client. */
export const PEER_ADDRESS_HEADER = 'x-svc-peer-address';

const MAX_ADDRESS_CHARS = 64;

/** The throttle key of a request: see above. `trustedProxyHops` is TRUSTED_PROXY_HOPS. Never throws. */
export function readClientAddress(headers: Headers, trustedProxyHops: number): string {
  const peer = headers.get(PEER_ADDRESS_HEADER)?.trim();
  if (!peer) return 'unknown';
  const forwarded = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  const chosen = (chain.at(-1 - trustedProxyHops) ?? chain[0]!).slice(0, MAX_ADDRESS_CHARS).toLowerCase();
  const unmapped = chosen.startsWith('::ffff:') && chosen.includes('.') ? chosen.slice(7) : chosen;
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
