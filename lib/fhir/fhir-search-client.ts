// FHIR R4 REST search against a remote server (an EMR or the partner API): one type-level search, following the
// searchset Bundle's `next` links until the result set is complete. Does not write anything, and does not
// interpret resources beyond resourceType, id and meta.
import { z } from 'zod';
import { egressError, loggableUrl, MIB, type Egress, type EgressTarget } from '@/lib/outbound/egress';
import type { FhirResource } from './types';

export type SearchAllOptions = {
  /** The FHIR base (e.g. https://emr.example/fhir/R4); https, or http on loopback for local testing. */
  baseUrl: string;
  resourceType: string;
  /** Search parameters; an array repeats the parameter (e.g. two `_lastUpdated` bounds mean AND). */
  params: Record<string, string | string[]>;
  /** Sent as `Authorization: Bearer`; only ever to baseUrl's origin. */
  accessToken?: string;
  /** More request headers (e.g. X-Partner-Account). */
  headers?: Record<string, string>;
  egress: Egress;
  /** Whose URL baseUrl is: the operator's (EMR_VENDORS, PARTNER_API_URL) or a tenant's. */
  target: EgressTarget;
  /** Which neutral message a failure gets. */
  purpose: 'emr' | 'partner';
  /** Per page request. */
  timeoutMs?: number;
  /** Per page. Default 32 MiB. */
  maxPageBytes?: number;
  /** Pages fetched at most; one more `next` link than this fails the whole search. Default 100. */
  maxPages?: number;
};

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_PAGES = 100;
const DEFAULT_MAX_PAGE_BYTES = 32 * MIB;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

// FHIR R4 id datatype: 1-64 of [A-Za-z0-9-.].
const Resource = z.looseObject({
  resourceType: z.string().regex(/^[A-Z][A-Za-z]{1,63}$/),
  id: z.string().regex(/^[A-Za-z0-9\-.]{1,64}$/),
  meta: z.looseObject({ lastUpdated: z.string().optional(), versionId: z.string().optional() }).optional(),
});

// FHIR R4 Bundle (http.html#search): a search answers with type searchset; `next` is the continuation.
const SearchsetBundle = z.object({
  resourceType: z.literal('Bundle'),
  type: z.literal('searchset'),
  link: z.array(z.object({ relation: z.string(), url: z.string() })).optional(),
  entry: z
    .array(
      z.object({
        resource: Resource.optional(),
        search: z.object({ mode: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

/**
 * Runs a search and returns every matching resource of `resourceType` across all pages, de-duplicated by id
 * (a later page wins, as paging over a changing result set can repeat a resource).
 * Entries with search.mode `include` or `outcome`, and resources of another type, are left out.
 *
 * Throws AppError TRANSPORT_FAILED (one neutral message per purpose; the reason in its cause) on a network error,
 * refused address, timeout, redirect, oversized page, non-2xx status, unreadable or non-searchset body, a `next`
 * link to another origin (the bearer token must not follow it: SSRF and token leak guard), a `next` link loop, or
 * more pages than maxPages. Throws Error for an invalid baseUrl or resourceType (a programming or configuration
 * error), before any network call.
 */
export async function searchAll(options: SearchAllOptions): Promise<FhirResource[]> {
  const base = parseBaseUrl(options.baseUrl);
  if (!/^[A-Z][A-Za-z]{1,63}$/.test(options.resourceType)) {
    throw new Error(`searchAll: invalid resource type ${JSON.stringify(options.resourceType)}`);
  }
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;

  const firstUrl = new URL(`${base.href.replace(/\/+$/, '')}/${options.resourceType}`);
  for (const [name, value] of Object.entries(options.params)) {
    for (const item of Array.isArray(value) ? value : [value]) firstUrl.searchParams.append(name, item);
  }

  const byId = new Map<string, FhirResource>();
  const visited = new Set<string>();
  let pageUrl: URL | null = firstUrl;
  while (pageUrl) {
    if (visited.size >= maxPages) {
      throw egressError(options.purpose, {
        reason: 'invalid-body',
        url: loggableUrl(pageUrl),
        problem: `more than ${maxPages} pages`,
      });
    }
    visited.add(pageUrl.href);
    const bundle = await fetchBundle(pageUrl, options);

    for (const entry of bundle.entry ?? []) {
      const mode = entry.search?.mode;
      if (!entry.resource || (mode !== undefined && mode !== 'match')) continue;
      if (entry.resource.resourceType !== options.resourceType) continue;
      const resource = entry.resource as FhirResource;
      byId.delete(resource.id); // Re-insert so the order follows the latest occurrence.
      byId.set(resource.id, resource);
    }

    const current: URL = pageUrl;
    pageUrl = nextPageUrl(bundle, current, base, options);
    if (pageUrl && visited.has(pageUrl.href)) {
      throw egressError(options.purpose, {
        reason: 'invalid-body',
        url: loggableUrl(current),
        problem: 'next link loops',
      });
    }
  }
  return [...byId.values()];
}

function parseBaseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('searchAll: baseUrl must be an absolute URL');
  }
  const isSecure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  // Bearer tokens and PHI never travel in cleartext.
  if (!isSecure || url.username || url.password || url.search || url.hash) {
    throw new Error('searchAll: baseUrl must be an https URL without credentials, query or fragment');
  }
  return url;
}

function nextPageUrl(
  bundle: z.infer<typeof SearchsetBundle>,
  current: URL,
  base: URL,
  options: SearchAllOptions,
): URL | null {
  const href = bundle.link?.find((link) => link.relation === 'next')?.url;
  if (!href) return null;
  let next: URL;
  try {
    next = new URL(href, current); // FHIR links should be absolute; a relative one resolves against the page.
  } catch (error) {
    throw egressError(
      options.purpose,
      { reason: 'invalid-body', url: loggableUrl(current), problem: 'invalid next link' },
      error,
    );
  }
  // Only follow links on the server we were pointed at: a hostile or compromised server must not be able to
  // aim our requests (and our bearer token) at another host, internal or external.
  if (next.origin !== base.origin || next.username || next.password) {
    throw egressError(options.purpose, {
      reason: 'invalid-body',
      url: loggableUrl(current),
      problem: 'next link to another origin',
    });
  }
  return next;
}

async function fetchBundle(url: URL, options: SearchAllOptions): Promise<z.infer<typeof SearchsetBundle>> {
  const headers: Record<string, string> = { ...options.headers, accept: 'application/fhir+json' };
  if (options.accessToken) headers.authorization = `Bearer ${options.accessToken}`;
  // Redirects refused (egress): one could carry the request to another origin, past the next-link guard.
  const response = await options.egress.request({
    url,
    headers,
    target: options.target,
    purpose: options.purpose,
    maxBodyBytes: options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  const where = loggableUrl(url);
  if (response.status < 200 || response.status >= 300)
    throw egressError(options.purpose, { reason: 'status', url: where, status: response.status });
  let body: unknown;
  try {
    body = JSON.parse(response.text());
  } catch (error) {
    throw egressError(options.purpose, { reason: 'invalid-body', url: where, problem: 'not JSON' }, error);
  }
  const parsed = SearchsetBundle.safeParse(body);
  if (!parsed.success) {
    // Paths and codes only: the body is PHI.
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), code: issue.code }));
    throw egressError(options.purpose, {
      reason: 'invalid-body',
      url: where,
      problem: 'not a searchset Bundle',
      issues,
    });
  }
  return parsed.data;
}
