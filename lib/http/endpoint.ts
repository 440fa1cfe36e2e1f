// An endpoint's contract: method, path, who may call it and the zod schemas of its input and output. The
// wrapper enforces it, the OpenAPI document is generated from it, and the route-registry tests enumerate it.
import type { z } from 'zod';
import type { Scope } from '../auth/scopes';
import type { Config, WebhookReceiver } from '../config';
import type { ErrorCode } from '../errors';

export type EndpointAuth =
  | 'session' // a staff session (cookie or bearer); tenancy comes from it
  | 'public' // no credential (health, discovery)
  | 'cron' // Authorization: Bearer CRON_SECRET
  | { signature: WebhookReceiver }; // partner webhook: HMAC of the raw body is the credential

/** What a renderer may read besides the handler's result. */
export type RenderContext = { request: Request; correlationId: string; config: Config };

export type Endpoint = {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** OpenAPI-style path, e.g. /api/emr-sync/connections/{id}. */
  path: string;
  summary: string;
  tags: string[];
  auth: EndpointAuth;
  scope?: Scope;
  /** Money movement, MFA and credential changes: a recent step-up claim is required. */
  stepUp?: boolean;
  /** Refused with 503 while SVC_HALT=1. */
  money?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  successStatus?: number;
  /** Error codes this endpoint answers beyond the ones its auth implies. */
  errors?: ErrorCode[];
  /** Content type of a non-JSON success body (NDJSON, FHIR, redirects are described in summary). */
  produces?: string;
  /**
   * For an endpoint that answers JSON by default and streams `produces` (e.g. NDJSON) when the client's Accept
   * asks for it: the schema of one streamed line. `response` then describes the JSON form.
   */
  streamLine?: z.ZodType;
  /** 'operation-outcome': 4xx/5xx bodies are FHIR OperationOutcome resources (FHIR routes whose successes are FHIR). */
  errorFormat?: 'operation-outcome';
  /** Headers set on every response of this endpoint, errors included (e.g. Referrer-Policy on the OAuth routes). */
  headers?: Record<string, string>;
  /** When the endpoint may also answer 302 (e.g. sending a browser back to a page): what the redirect means. */
  redirect?: string;
  /**
   * Turns the handler's plain result into the response, for answers that are not 200/`successStatus` JSON
   * (cookies, redirects, FHIR content types, ETags). The domain returns values; the edge renders them. The result
   * reaches the renderer as the handler returned it: `response` then documents the body and the renderer applies
   * it if the body carries PHI or money. A handler that returns a Response itself bypasses the renderer.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each endpoint's renderer knows its handler's result type
  render?: (result: any, context: RenderContext) => Response | Promise<Response>;
};

export const endpoint = <E extends Endpoint>(e: E): E => e;
