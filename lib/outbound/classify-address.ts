// Which kind of network an IP address belongs to, for the egress policy (DECISIONS "Trust boundaries"): only
// `public` may be reached from a tenant-chosen URL. IPv6 forms that embed an IPv4 address (mapped ::ffff:a.b.c.d,
// compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address they carry, so
// `[::ffff:127.0.0.1]` is loopback. Pure; never throws (an unparsable address is `invalid`).
import { isIPv4, isIPv6 } from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'ula'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'invalid';

type Range = readonly [prefix: string, bits: number, kind: AddressClass];

// RFC 6890 special-purpose registries, plus the cloud metadata address, which is link-local but named on its own.
// Order matters: the first range that contains the address decides.
const IPV4_RANGES: readonly Range[] = [
  ['169.254.169.254', 32, 'metadata'],
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // TEST-NET-1
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // TEST-NET-2
  ['203.0.113.0', 24, 'reserved'], // TEST-NET-3
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes 255.255.255.255
];

const IPV6_RANGES: readonly Range[] = [
  ['fd00:ec2::254', 128, 'metadata'], // AWS IMDS over IPv6
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'reserved'], // local-use NAT64 (RFC 8215): translates to whatever IPv4 the network chose
  ['100::', 64, 'reserved'], // discard-only
  ['2001::', 23, 'reserved'], // IETF protocol assignments (Teredo 2001::/32 included)
  ['2001:db8::', 32, 'reserved'], // documentation
  ['3fff::', 20, 'reserved'], // documentation (RFC 9637)
  ['fc00::', 7, 'ula'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'reserved'], // deprecated site-local
  ['ff00::', 8, 'multicast'],
];

export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''); // brackets of a URL host; an IPv6 zone id
  if (isIPv4(bare)) return classifyV4(parseV4(bare));
  if (isIPv6(bare)) return classifyV6(parseV6(bare));
  return 'invalid';
}

function classifyV4(value: bigint): AddressClass {
  return IPV4_RANGES.find(([prefix, bits]) => inRange(value, parseV4(prefix), bits, 32))?.[2] ?? 'public';
}

function classifyV6(value: bigint): AddressClass {
  const embedded = embeddedV4(value);
  if (embedded !== null) return classifyV4(embedded);
  return IPV6_RANGES.find(([prefix, bits]) => inRange(value, parseV6(prefix), bits, 128))?.[2] ?? 'public';
}

/** The IPv4 address an IPv6 address stands for, or null. */
function embeddedV4(value: bigint): bigint | null {
  const low32 = value & 0xffffffffn;
  const high96 = value >> 32n;
  if (high96 === 0xffffn) return low32; // ::ffff:a.b.c.d (mapped)
  if (high96 === 0n && low32 > 1n) return low32; // ::a.b.c.d (compatible, deprecated); :: and ::1 are not
  if (high96 === 0x0064ff9b0000000000000000n) return low32; // 64:ff9b::/96 NAT64
  if (value >> 112n === 0x2002n) return (value >> 80n) & 0xffffffffn; // 2002:AABB:CCDD::/48 6to4
  return null;
}

function inRange(value: bigint, prefix: bigint, bits: number, width: number): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === prefix >> shift;
}

function parseV4(address: string): bigint {
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function parseV6(address: string): bigint {
  let text = address.toLowerCase();
  // A trailing dotted quad (::ffff:127.0.0.1) becomes two hex groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = parseV4(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].reduce(
    (acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)),
    0n,
  );
}
