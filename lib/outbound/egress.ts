// The outbound edge: every call this server makes to another server (EMR discovery, token and FHIR endpoints,
// the partner API, the CAQH CORE payer, the external FHIR store, the clearinghouse, a clinic's webhook endpoints)
// goes through `Egress`.
// `lib/http` is the inbound edge; this is its mirror. One policy (DECISIONS "Trust boundaries"):
// - no redirects (a 3xx is a failure: it would carry codes, assertions, tokens or PHI to an address we did not
//   choose), a streaming cap on every response body, one timeout over connect, headers and body;
// - `target: 'tenant'` (a URL a clinic chose, and anything discovered from it) additionally: https only in
//   production (sandbox also allows http on loopback, for the local fakes); every address the host resolves to
//   must be public unless the call is an EHR's (purpose 'emr') and the URL's origin is in EMR_ALLOWED_ORIGINS; the
//   socket connects to the address that was checked (no DNS rebinding between check and connect);
// - `target: 'operator'` (URLs from the operator's environment) may be private addresses: the operator chose them.
// A failure is an AppError with one neutral message per purpose; the details (reason, status, address, cause)
// are its `cause`, which the route wrapper logs as JSON with the correlation id. Never put a token in a URL.
//
// Usage:
//   const res = await egress.request({ url, method: 'POST', headers, body, target: 'operator', purpose: 'fhir-store',
//     maxBodyBytes: 10 * MIB, timeoutMs: 15_000 });
//   if (res.status !== 200) throw egressError('fhir-store', { reason: 'status', status: res.status, url });
//   const doc = JSON.parse(res.text());
// `egress.open(...)` is the streaming variant: the same checks, `chunks` yields the body under the same cap and
// timeout (call `cancel()` if you stop reading early).
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { ServiceMode } from '@/lib/config';
import { AppError, isAppError, type ErrorCode } from '@/lib/errors';
import { classifyAddress, type AddressClass } from './classify-address';

export const KIB = 1024;
export const MIB = 1024 * 1024;

export type EgressTarget = 'operator' | 'tenant';
export type EgressPurpose =
  'emr' | 'partner' | 'payer' | 'fhir-store' | 'clearinghouse' | 'cds-client' | 'knowledge-base' | 'webhook';

/** What the caller of a failed call is told: one sentence per purpose, never upstream status or text. */
export const EGRESS_FAILURES: Record<EgressPurpose, { code: ErrorCode; message: string }> = {
  emr: { code: 'TRANSPORT_FAILED', message: 'The EMR could not be reached; try again later' },
  partner: { code: 'TRANSPORT_FAILED', message: 'The partner API could not be reached; try again later' },
  payer: { code: 'TRANSPORT_FAILED', message: 'The payer could not be reached; try the eligibility check again later' },
  'fhir-store': { code: 'DEPENDENCY_UNAVAILABLE', message: 'The FHIR store is unavailable' },
  clearinghouse: { code: 'TRANSPORT_FAILED', message: 'The clearinghouse could not be reached; try again later' },
  // A CDS client's JWKS: without its keys no signature can be trusted.
  'cds-client': { code: 'UNAUTHENTICATED', message: 'The EHR signature could not be verified' },
  'knowledge-base': { code: 'TRANSPORT_FAILED', message: 'The coverage rules could not be read; try again later' },
  // A clinic's webhook endpoint (lib/events): the dispatcher records the attempt and retries, nobody waits on it.
  webhook: { code: 'TRANSPORT_FAILED', message: 'The webhook endpoint could not be reached' },
};

export type EgressRequest = {
  url: string | URL;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  target: EgressTarget;
  purpose: EgressPurpose;
  /** The response body is refused past this many bytes (checked while streaming). */
  maxBodyBytes: number;
  /** One budget for resolve, connect, headers and the whole body. */
  timeoutMs: number;
};

export type EgressResponse = { status: number; headers: Headers; body: Buffer; text(): string };
export type EgressStream = { status: number; headers: Headers; chunks: AsyncIterable<Buffer>; cancel(): void };

export type EgressFailureReason =
  | 'invalid-url'
  | 'scheme-refused'
  | 'address-refused'
  | 'resolve'
  | 'connect'
  | 'timeout'
  | 'redirect'
  | 'too-large'
  | 'status'
  | 'invalid-body';

/** The log's view of a failure (the AppError's cause). Never holds a token, a query string or a body. */
export type EgressFailureDetail = {
  reason: EgressFailureReason;
  url?: string;
  status?: number;
  address?: string;
  addressClass?: AddressClass;
  [detail: string]: unknown;
};
export type EgressFailure = { purpose: EgressPurpose } & EgressFailureDetail;

export type Egress = {
  request(req: EgressRequest): Promise<EgressResponse>;
  open(req: EgressRequest): Promise<EgressStream>;
};

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type EgressPolicy = {
  mode: ServiceMode;
  /** EMR_ALLOWED_ORIGINS: tenant origins that may resolve to private addresses (on-premises EHRs). */
  allowedOrigins: readonly string[];
  /** DNS, injectable so tests can play a resolver that answers a private or changing address. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
};

/** The neutral AppError for a failed call; `detail` goes to the log only. */
export function egressError(purpose: EgressPurpose, detail: EgressFailureDetail, error?: unknown): AppError {
  const { code, message } = EGRESS_FAILURES[purpose];
  const cause: EgressFailure = { purpose, ...detail, ...(error !== undefined && { error: describeError(error) }) };
  return new AppError(code, message, { cause });
}

/** A URL as the log may show it: origin and path, never the query (ids, cursors) or credentials. */
export function loggableUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

// Idle sockets are kept for reuse, and closed by us first: after IDLE_SOCKET_MS, or a second before the server's
// own `Keep-Alive: timeout=N`, so a request never goes out on a socket the server is closing (ECONNRESET). Node
// reads that hint only when the agent has a timeout; on a socket in use, the timeout only notifies, the
// request's own deadline stands.
const IDLE_SOCKET_MS = 30_000;
const KEEP_ALIVE: http.AgentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS };

const systemResolve = async (hostname: string): Promise<ResolvedAddress[]> =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export function createEgress(policy: EgressPolicy): Egress {
  const resolve = policy.resolve ?? systemResolve;
  const allowedOrigins = new Set(policy.allowedOrigins);
  // Separate pools per target, so a socket an operator call opened is never reused by a tenant call.
  const agents = {
    operator: { http: new http.Agent(KEEP_ALIVE), https: new https.Agent(KEEP_ALIVE) },
    tenant: { http: new http.Agent(KEEP_ALIVE), https: new https.Agent(KEEP_ALIVE) },
  };

  async function open(req: EgressRequest): Promise<EgressStream> {
    const fail = (detail: EgressFailureDetail, error?: unknown) => egressError(req.purpose, detail, error);
    let url: URL;
    try {
      url = new URL(req.url);
    } catch (error) {
      throw fail({ reason: 'invalid-url' }, error);
    }
    const where = loggableUrl(url);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
      throw fail({ reason: 'scheme-refused', url: where });
    }

    const deadline = Date.now() + req.timeoutMs;
    const pinned = req.target === 'tenant' ? await checkTenantUrl(url, req.purpose, where, deadline, fail) : undefined;

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now()));
    timer.unref();
    const timedOut = () => controller.signal.aborted;
    const client = url.protocol === 'https:' ? https : http;
    const body = typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body;

    let response: http.IncomingMessage;
    // Whether the request was handed to the network whole: a failure before that never reached the server, one
    // after it may have (a caller that must not act twice, a claim send, needs to know which).
    let requestSent = false;
    try {
      response = await new Promise<http.IncomingMessage>((resolvePromise, reject) => {
        const outgoing = client.request({
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: req.method ?? 'GET',
          headers: { ...req.headers, ...(body && { 'content-length': String(body.byteLength) }) },
          agent: agents[req.target][url.protocol === 'https:' ? 'https' : 'http'],
          signal: controller.signal,
          ...(pinned && { lookup: pinnedLookup(pinned) }),
        });
        outgoing.once('response', resolvePromise);
        outgoing.once('error', reject);
        outgoing.once('finish', () => (requestSent = true));
        outgoing.end(body);
      });
    } catch (error) {
      clearTimeout(timer);
      throw fail(
        {
          reason: timedOut() ? 'timeout' : 'connect',
          url: where,
          requestSent,
          ...(pinned && { address: pinned[0]!.address }),
        },
        error,
      );
    }

    const release = () => {
      clearTimeout(timer);
      response.destroy();
    };
    if (response.statusCode! >= 300 && response.statusCode! < 400) {
      release();
      throw fail({ reason: 'redirect', url: where, status: response.statusCode });
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > req.maxBodyBytes) {
      release();
      throw fail({ reason: 'too-large', url: where, status: response.statusCode, maxBodyBytes: req.maxBodyBytes });
    }

    async function* chunks(): AsyncGenerator<Buffer> {
      let received = 0;
      try {
        for await (const chunk of response as AsyncIterable<Buffer>) {
          received += chunk.length;
          if (received > req.maxBodyBytes) {
            throw fail({
              reason: 'too-large',
              url: where,
              status: response.statusCode,
              maxBodyBytes: req.maxBodyBytes,
            });
          }
          yield chunk;
        }
      } catch (error) {
        if (isAppError(error)) throw error;
        throw fail(
          { reason: timedOut() ? 'timeout' : 'connect', url: where, status: response.statusCode, phase: 'body' },
          error,
        );
      } finally {
        release();
      }
    }

    return { status: response.statusCode!, headers: toHeaders(response.headers), chunks: chunks(), cancel: release };
  }

  /** Resolves, and refuses unless every address is allowed; returns the checked addresses to connect to. */
  async function checkTenantUrl(
    url: URL,
    purpose: EgressPurpose,
    where: string,
    deadline: number,
    fail: (d: EgressFailureDetail, e?: unknown) => AppError,
  ): Promise<ResolvedAddress[]> {
    if (url.protocol === 'http:' && policy.mode === 'production') throw fail({ reason: 'scheme-refused', url: where });
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: ResolvedAddress[];
    if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
    else {
      try {
        addresses = await withDeadline(resolve(host), deadline);
      } catch (error) {
        throw fail({ reason: 'resolve', url: where }, error);
      }
    }
    if (addresses.length === 0) throw fail({ reason: 'resolve', url: where });
    // EMR_ALLOWED_ORIGINS names on-premises EHRs: it opens private addresses to EHR calls only. A webhook endpoint a
    // clinic registers at one of those origins would otherwise reach another clinic's network (DECISIONS "Events
    // out": an endpoint resolves to public addresses only).
    const isAllowedOrigin = purpose === 'emr' && allowedOrigins.has(url.origin);
    for (const { address } of addresses) {
      const kind = classifyAddress(address);
      // http only to loopback (sandbox, the local fakes); never cleartext to anything else.
      if (url.protocol === 'http:' && kind !== 'loopback')
        throw fail({ reason: 'scheme-refused', url: where, address, addressClass: kind });
      if (!isAddressAllowed(kind, { isAllowedOrigin, mode: policy.mode })) {
        throw fail({ reason: 'address-refused', url: where, address, addressClass: kind });
      }
    }
    // IPv4 first: a dual-stack name whose service listens on IPv4 only still connects on the first try.
    return [...addresses].sort((a, b) => a.family - b.family);
  }

  return {
    open,
    async request(req) {
      const stream = await open(req);
      const parts: Buffer[] = [];
      for await (const chunk of stream.chunks) parts.push(chunk);
      const body = Buffer.concat(parts);
      return { status: stream.status, headers: stream.headers, body, text: () => body.toString('utf8') };
    },
  };
}

// Failures that happen before a request exists on the wire: the server cannot have seen it.
const BEFORE_SENDING: ReadonlySet<EgressFailureReason> = new Set([
  'invalid-url',
  'scheme-refused',
  'address-refused',
  'resolve',
]);

/**
 * True when `error` is an egress failure that certainly kept the request from the server: refused or unresolved
 * before connecting, or a connection that failed or timed out before the request was handed over whole. Anything
 * else (an answer came, or the request left and the answer did not) may have reached it.
 */
export function neverReachedServer(error: unknown): boolean {
  const cause = isAppError(error) ? (error.options.cause as Partial<EgressFailure> | undefined) : undefined;
  if (!cause?.reason) return false;
  if (BEFORE_SENDING.has(cause.reason)) return true;
  return (cause.reason === 'connect' || cause.reason === 'timeout') && cause.requestSent === false;
}

/**
 * Whether a tenant URL may reach an address of this kind. Public always; loopback in sandbox (the local fakes);
 * private networks only for an origin the operator listed. The metadata service, unspecified, multicast and
 * unparsable addresses never, whoever listed the origin.
 */
export function isAddressAllowed(
  kind: AddressClass,
  context: { isAllowedOrigin: boolean; mode: ServiceMode },
): boolean {
  if (kind === 'public') return true;
  if (kind === 'metadata' || kind === 'unspecified' || kind === 'multicast' || kind === 'invalid') return false;
  if (kind === 'loopback' && context.mode === 'sandbox') return true;
  return context.isAllowedOrigin;
}

// net.connect asks with { all: true } when it may try several addresses (happy eyeballs): give it only checked ones.
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as unknown as LookupFunction;
}

function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('resolve timed out')), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

function describeError(error: unknown): unknown {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { name: error.name, message: error.message, ...(typeof code === 'string' && { code }) };
  }
  return String(error);
}
