// SMART App Launch v2 discovery: reads `{fhirBaseUrl}/.well-known/smart-configuration` and keeps only what the
// browser authorization-code flow needs. Does not cache, and does not read the FHIR CapabilityStatement.
import { z } from 'zod';
import { AppError } from '@/lib/http/errors';
import { fetchText } from '@/lib/http/fetch-text';

export type SmartConfiguration = {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  capabilities: string[];
  codeChallengeMethods: string[];
};

export type DiscoverOptions = { fetch?: typeof fetch; timeoutMs?: number };

const DEFAULT_TIMEOUT_MS = 10_000;

// SMART App Launch v2 section 2.0.5 (well-known document). capabilities and code_challenge_methods_supported are
// REQUIRED there; we default capabilities to [] to tolerate v1 servers, but S256 stays mandatory below.
const WellKnownDocument = z.object({
  authorization_endpoint: z.string().min(1),
  token_endpoint: z.string().min(1),
  capabilities: z.array(z.string()).default([]),
  code_challenge_methods_supported: z.array(z.string()).default([]),
});

/**
 * Fetches and validates the server's SMART configuration.
 * Throws AppError VALIDATION_FAILED (no network call) when fhirBaseUrl is not an absolute https URL (or http on
 * loopback), and TRANSPORT_FAILED when the document cannot be fetched, is not the expected JSON, names an
 * endpoint that is not https (loopback http excepted) or does not offer PKCE S256.
 */
export async function discoverSmartConfiguration(
  fhirBaseUrl: string,
  opts: DiscoverOptions = {},
): Promise<SmartConfiguration> {
  const base = parseSecureUrl(fhirBaseUrl);
  if (!base || base.search || base.hash) {
    throw new AppError('VALIDATION_FAILED', 'The FHIR base URL must be an absolute https URL', {
      issues: [{ path: 'fhirBaseUrl', message: 'Must be an absolute https URL without query or fragment' }],
    });
  }
  const wellKnownUrl = `${base.href.replace(/\/+$/, '')}/.well-known/smart-configuration`;

  const body = await fetchJson(wellKnownUrl, opts);
  const parsed = WellKnownDocument.safeParse(body);
  if (!parsed.success) {
    throw new AppError('TRANSPORT_FAILED', 'The EMR returned an invalid SMART configuration', {
      cause: parsed.error,
    });
  }
  const doc = parsed.data;

  // Endpoints get the user's browser (authorize) and our authorization code and verifier (token): never send
  // them over cleartext (OAuth 2.0 Security BCP section 2.6; RFC 6749 section 3.1 forbids fragments).
  for (const [name, value] of [
    ['authorization_endpoint', doc.authorization_endpoint],
    ['token_endpoint', doc.token_endpoint],
  ] as const) {
    const url = parseSecureUrl(value);
    if (!url || url.hash) {
      throw new AppError('TRANSPORT_FAILED', `The EMR's SMART configuration has an insecure or invalid ${name}`);
    }
  }
  // SMART App Launch v2 requires PKCE with S256 (section 2.0.5 and 2.1.9); we never fall back to plain.
  if (!doc.code_challenge_methods_supported.includes('S256')) {
    throw new AppError('TRANSPORT_FAILED', "The EMR's SMART configuration does not support PKCE S256");
  }

  return {
    authorizationEndpoint: doc.authorization_endpoint,
    tokenEndpoint: doc.token_endpoint,
    capabilities: doc.capabilities,
    codeChallengeMethods: doc.code_challenge_methods_supported,
  };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * An absolute https URL, or http on loopback (local testing only), without embedded credentials; else null.
 * Shared by the EMR adapters so every endpoint that receives codes, assertions or tokens obeys the same rule.
 */
export function parseSecureUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return url;
  return null;
}

async function fetchJson(url: string, opts: DiscoverOptions): Promise<unknown> {
  // Redirects refused: a discovery document that moves elsewhere is not trusted to name our endpoints.
  const { response, text } = await fetchText(url, { headers: { accept: 'application/json' } }, {
    fetch: opts.fetch, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, unreachableMessage: 'The EMR SMART configuration could not be fetched',
  });
  if (!response.ok) {
    throw new AppError('TRANSPORT_FAILED', `The EMR SMART configuration request failed with HTTP ${response.status}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('TRANSPORT_FAILED', 'The EMR returned an unreadable SMART configuration', { cause: error });
  }
}
