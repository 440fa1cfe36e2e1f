// SMART App Launch v2 discovery: reads `{fhirBaseUrl}/.well-known/smart-configuration` and keeps only what the
// browser authorization-code flow needs. Does not cache, and does not read the FHIR CapabilityStatement.
// The FHIR base is a tenant's choice (a connection's own fhirBaseUrl), so the document is fetched under the tenant
// egress policy, and what it names is tenant-chosen too: never a place for platform credentials.
import { z } from 'zod';
import { AppError } from '@/lib/errors';
import { egressError, KIB, loggableUrl, type Egress } from '@/lib/outbound/egress';

export type SmartConfiguration = {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  capabilities: string[];
  codeChallengeMethods: string[];
};

export type DiscoverOptions = { egress: Egress; timeoutMs?: number };

const DEFAULT_TIMEOUT_MS = 10_000;
// A SMART configuration is a few KiB of JSON.
const MAX_DOCUMENT_BYTES = 64 * KIB;

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
 * loopback), and TRANSPORT_FAILED with the egress client's neutral message when the document cannot be fetched,
 * is not the expected JSON, names an endpoint that is not https (loopback http excepted) or does not offer PKCE
 * S256 (which of these it was is in the cause, for the log).
 */
export async function discoverSmartConfiguration(
  fhirBaseUrl: string,
  opts: DiscoverOptions,
): Promise<SmartConfiguration> {
  const base = parseSecureUrl(fhirBaseUrl);
  if (!base || base.search || base.hash) {
    throw new AppError('VALIDATION_FAILED', 'The FHIR base URL must be an absolute https URL', {
      issues: [{ path: 'fhirBaseUrl', message: 'Must be an absolute https URL without query or fragment' }],
    });
  }
  const wellKnownUrl = `${base.href.replace(/\/+$/, '')}/.well-known/smart-configuration`;

  const where = loggableUrl(new URL(wellKnownUrl));
  const invalid = (problem: string, detail: Record<string, unknown> = {}) =>
    egressError('emr', { reason: 'invalid-body', url: where, problem, ...detail });

  const body = await fetchJson(wellKnownUrl, opts);
  const parsed = WellKnownDocument.safeParse(body);
  if (!parsed.success) {
    throw invalid('not a SMART configuration', {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), code: i.code })),
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
    if (!url || url.hash) throw invalid(`insecure or invalid ${name}`);
  }
  // SMART App Launch v2 requires PKCE with S256 (section 2.0.5 and 2.1.9); we never fall back to plain.
  if (!doc.code_challenge_methods_supported.includes('S256')) throw invalid('no PKCE S256');

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
  // Redirects refused (egress): a discovery document that moves elsewhere is not trusted to name our endpoints.
  const response = await opts.egress.request({
    url,
    headers: { accept: 'application/json' },
    target: 'tenant',
    purpose: 'emr',
    maxBodyBytes: MAX_DOCUMENT_BYTES,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  const where = loggableUrl(new URL(url));
  if (response.status !== 200) throw egressError('emr', { reason: 'status', url: where, status: response.status });
  try {
    return JSON.parse(response.text());
  } catch (error) {
    throw egressError('emr', { reason: 'invalid-body', url: where, problem: 'not JSON' }, error);
  }
}
