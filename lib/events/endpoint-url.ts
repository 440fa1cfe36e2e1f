// A webhook endpoint's URL is a tenant-chosen URL (DECISIONS "Trust boundaries"): absolute http(s) without
// credentials or fragment; in production https only, and every address its host resolves to must be public
// (the egress policy, checked here so a bad URL is a 400 at registration; the egress client checks again at
// every delivery and connects to the address it checked, so a DNS change later cannot reach a private host).
// Sandbox also allows http to loopback, for local receivers.
import dns from 'node:dns';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { Config } from '../config';
import { AppError } from '../errors';
import { classifyAddress } from '../outbound/classify-address';
import { isAddressAllowed } from '../outbound/egress';

export const EndpointUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.hash;
    } catch {
      return false;
    }
  }, 'Must be an absolute https URL without credentials or fragment');

export type ResolveHost = (hostname: string) => Promise<string[]>;

const systemResolve: ResolveHost = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** @throws AppError VALIDATION_FAILED (path body.url) when the egress policy would refuse the URL. */
export async function assertEndpointUrlAllowed(
  value: string,
  config: Pick<Config, 'mode'>,
  resolve: ResolveHost = systemResolve,
): Promise<void> {
  const url = new URL(value);
  const refuse = (message: string) =>
    new AppError('VALIDATION_FAILED', 'The request body is not valid', { issues: [{ path: 'body.url', message }] });
  if (url.protocol === 'http:' && config.mode === 'production') throw refuse('Must be an https URL in production');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    throw refuse('The host name does not resolve');
  }
  if (addresses.length === 0) throw refuse('The host name does not resolve');
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (url.protocol === 'http:' && kind !== 'loopback') throw refuse('Must be an https URL');
    if (!isAddressAllowed(kind, { isAllowedOrigin: false, mode: config.mode }))
      throw refuse('Must resolve to a public address (not loopback, private, link-local or metadata)');
  }
}
