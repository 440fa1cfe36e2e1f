// An endpoint's contract: method, path, who may call it and the zod schemas of its input and output. The
// wrapper (lib/http/route.ts) enforces it, the OpenAPI document is generated from it, and the route-registry
// tests enumerate it. Shared by every domain's endpoints.ts, so it lives beside lib/errors.ts, not in lib/http.
import type { z } from 'zod';
import type { Scope } from './auth/scopes';
import type { WebhookReceiver } from './config';
import type { ErrorCode } from './errors';

export type EndpointAuth =
  | 'session' // a staff session (cookie or bearer); tenancy comes from it
  | 'public' // no credential (health, discovery)
  | 'cron' // Authorization: Bearer CRON_SECRET
  | { signature: WebhookReceiver }; // partner webhook: HMAC of the raw body is the credential

/** Newline-delimited JSON, for an endpoint that streams (`produces` with `streamLine`). */
export const NDJSON_TYPE = 'application/x-ndjson';

export type Endpoint = {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** OpenAPI-style path, e.g. /api/emr-sync/connections/{id}. */
  path: string;
  summary: string;
  tags: string[];
  auth: EndpointAuth;
  scope?: Scope;
  /** A second scope the caller must hold as well (the revenue dashboard reads claims and money: both). */
  alsoScope?: Scope;
  /** Money movement, MFA and credential changes: a recent step-up claim is required. */
  stepUp?: boolean;
  /**
   * For an endpoint where only some requests need the claim (no endpoint today: POST /api/auth/mfa used it until
   * turning MFA on was gated too): checked with the parsed body, after parsing and before the handler, with the
   * same 401 STEP_UP_REQUIRED as `stepUp`. Annotate the parameter with the body's type.
   */
  stepUpWhen?: (body: never) => boolean;
  /** Refused with 503 while SVC_HALT=1. */
  money?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * For an endpoint whose credential the domain checks (a CDS Hooks JWT, verified for the service the path names):
   * the route leaves the body unread and the handler reads it through `readBody` once that check has passed, so a
   * caller without a credential is refused before anything it sent is parsed. `body` still describes it.
   */
  deferBody?: true;
  response?: z.ZodType;
  successStatus?: number;
  /**
   * For an endpoint that answers some requests at once and queues others (a pull run as a job): the 202 body and
   * when it is given. The route's renderer decides which.
   */
  accepted?: { response: z.ZodType; description: string };
  /** Error codes this endpoint answers beyond the ones its auth implies. */
  errors?: ErrorCode[];
  /** Content type of a non-JSON success body (NDJSON, FHIR, redirects are described in summary). */
  produces?: string;
  /**
   * For an endpoint that answers JSON by default and streams `produces` (e.g. NDJSON) when the client's Accept
   * asks for it: the schema of one streamed line. `response` then describes the JSON form.
   */
  streamLine?: z.ZodType;
  /**
   * 'operation-outcome': 4xx/5xx bodies are FHIR OperationOutcome resources (FHIR routes whose successes are FHIR).
   * 'oauth': 4xx/5xx bodies are RFC 6749 section 5.2 `{ error, error_description }` (OAuth token endpoints, whose
   * clients read nothing else). The endpoint says which format; lib/http/error-response.ts renders it.
   */
  errorFormat?: 'operation-outcome' | 'oauth';
  /** Headers set on every response of this endpoint, errors included (e.g. Referrer-Policy on the OAuth routes). */
  headers?: Record<string, string>;
  /** When the endpoint may also answer 302 (e.g. sending a browser back to a page): what the redirect means. */
  redirect?: string;
};

export const endpoint = <E extends Endpoint>(e: E): E => e;
