// The OpenAPI 3.1 document, generated from the endpoint registry and the same zod schemas the wrapper
// enforces, so a route documents itself by being written. next-auth's own endpoints are described by hand.
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../errors';
import type { Endpoint } from '../endpoint';
import { ENDPOINTS } from './registry';
import { OperationOutcomeSchema } from '../fhir/operation-outcome';
import { FHIR_JSON } from '../fhir/fhir-json';

type Json = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): Json =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;

const ErrorSchema = {
  type: 'object',
  required: ['code', 'message', 'correlationId'],
  properties: {
    code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
    message: { type: 'string' },
    correlationId: { type: 'string' },
    issues: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' }, edit: { type: 'string' } },
      },
    },
  },
};

/** The error codes an endpoint can answer: its own plus those its auth, scope and input imply. */
export function errorCodesOf(e: Endpoint): ErrorCode[] {
  const codes = new Set<ErrorCode>(e.errors ?? []);
  // A path parameter can always be malformed (`%ff`: 400 before any schema), so every templated path documents it.
  if (e.params || e.query || e.body || e.path.includes('{')) codes.add('VALIDATION_FAILED');
  if (e.auth === 'session')
    ['UNAUTHENTICATED', 'FORBIDDEN', 'DEPENDENCY_UNAVAILABLE'].forEach((c) => codes.add(c as ErrorCode));
  if (e.auth === 'cron') ['UNAUTHENTICATED', 'DEPENDENCY_UNAVAILABLE'].forEach((c) => codes.add(c as ErrorCode));
  if (typeof e.auth === 'object') {
    codes.add('SIGNATURE_INVALID');
    codes.add(e.auth.signature === 'payment' ? 'DEPENDENCY_UNAVAILABLE' : 'NOT_CONFIGURED');
  }
  if (e.scope) codes.add('SCOPE_MISSING');
  if (e.stepUp) codes.add('STEP_UP_REQUIRED');
  if (e.money) codes.add('DEPENDENCY_UNAVAILABLE');
  codes.add('INTERNAL_ERROR');
  return [...codes].sort();
}

function parametersOf(e: Endpoint): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [
    ['path', e.params],
    ['query', e.query],
  ] as const) {
    if (!schema) continue;
    const json = toSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: prop });
    }
  }
  return out;
}

function operationOf(e: Endpoint): Json {
  const responses: Json = {};
  const success = String(e.successStatus ?? 200);
  responses[success] = e.response
    ? {
        description: 'Success',
        content:
          e.produces && e.streamLine
            ? // JSON by default; the streamed form is described by the schema of one line.
              {
                'application/json': { schema: toSchema(e.response, 'output') },
                [e.produces]: { schema: toSchema(e.streamLine, 'output') },
              }
            : { [e.produces ?? 'application/json']: { schema: toSchema(e.response, 'output') } },
      }
    : { description: e.produces ? `Success (${e.produces})` : 'Success' };
  if (e.accepted && e.response) {
    responses['202'] = {
      description: e.accepted,
      content: { 'application/json': { schema: toSchema(e.response, 'output') } },
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(e))
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    if (String(status) === success) continue;
    responses[String(status)] = {
      description: `Error: ${codes.join(', ')}`,
      content: {
        'application/json': {
          schema: { $ref: `#/components/schemas/${e.errorFormat === 'oauth' ? 'OAuthError' : 'Error'}` },
        },
        // FHIR routes: errors as OperationOutcome (the first gate's 401 and a 202 stay JSON).
        ...(e.errorFormat === 'operation-outcome' &&
          status >= 400 && { [FHIR_JSON]: { schema: toSchema(OperationOutcomeSchema, 'output') } }),
      },
    };
  }
  if (e.redirect && success !== '302') responses['302'] = { description: e.redirect };
  const security =
    e.auth === 'session'
      ? [{ sessionCookie: [] }, { bearerSession: [] }]
      : e.auth === 'cron'
        ? [{ cronBearer: [] }]
        : typeof e.auth === 'object'
          ? [{ webhookSignature: [] }]
          : [];
  return {
    summary: e.summary,
    tags: e.tags,
    operationId: `${e.method.toLowerCase()}${e.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    security,
    'x-scope': e.scope ?? null,
    'x-step-up': !!e.stepUp,
    'x-error-codes': errorCodesOf(e),
    parameters: parametersOf(e),
    ...(e.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(e.body, 'input') } } } }
      : {}),
    responses,
  };
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
const unavailable = errorResponse('DEPENDENCY_UNAVAILABLE: sign-in is not configured (AUTH_SECRET unset)');

const nextAuthPaths: Record<string, Json> = {
  '/api/auth/csrf': {
    get: {
      summary: 'CSRF token for sign-in (also sets the CSRF cookie)',
      tags: ['auth'],
      responses: { 200: { description: 'csrfToken' }, 503: unavailable },
    },
  },
  '/api/auth/callback/credentials': {
    post: {
      summary: 'Sign in with e-mail, password and (when MFA is on) mfaCode; form-encoded',
      tags: ['auth'],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['csrfToken', 'email', 'password'],
              properties: {
                csrfToken: { type: 'string' },
                email: { type: 'string' },
                password: { type: 'string' },
                mfaCode: { type: 'string' },
                json: { type: 'string', enum: ['true'] },
              },
            },
          },
        },
      },
      responses: {
        200: { description: 'Signed in; the httpOnly session cookie is set' },
        302: { description: 'Signed in (callers that did not send json=true are redirected)' },
        400: errorResponse(
          'VALIDATION_FAILED: the form is over 8 KiB, has no Content-Length, or a field is too long; checked before any password work',
        ),
        401: errorResponse(
          "INVALID_CREDENTIALS, MFA_REQUIRED, or UNAUTHENTICATED (missing CSRF token); every failure body also carries next-auth's url",
        ),
        403: errorResponse(
          'FORBIDDEN: the account was deactivated by a clinic admin (said only after the password verified)',
        ),
        423: errorResponse('ACCOUNT_LOCKED, with Retry-After (also while a burst of attempts is still being checked)'),
        429: errorResponse(
          'RATE_LIMITED: too many failed sign-ins from this client address (any accounts), with Retry-After',
        ),
        503: unavailable,
      },
    },
  },
  '/api/auth/session': {
    get: {
      summary: 'The signed-in user: id, email, orgId, clinicId, clinic name, scopes',
      tags: ['auth'],
      responses: { 200: { description: 'Session' }, 503: unavailable },
    },
  },
  '/api/auth/signout': {
    post: {
      summary: 'Sign out (form: csrfToken)',
      tags: ['auth'],
      responses: {
        200: { description: 'Signed out' },
        302: { description: 'Signed out (redirect)' },
        503: unavailable,
      },
    },
  },
};

export function buildOpenApi(serverUrl: string): Json {
  const paths: Record<string, Json> = { ...nextAuthPaths };
  for (const e of ENDPOINTS) paths[e.path] = { ...(paths[e.path] ?? {}), [e.method.toLowerCase()]: operationOf(e) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Clinic Revenue Platform API',
      version: 'unversioned',
      description:
        'Eligibility (X12 270/271), authentication and step-up, signed partner webhooks, EMR sync and FHIR R4, claims and settlement, clinic users and the audit log. ' +
        'Money is integer cents in every body, with one exception: totalCharge on claim inline-create (POST /api/claims/submit) is dollars, converted exactly and stored as totalChargeCents. ' +
        'Each route names the scope it needs (x-scope): eligibility:read, patients:read, appointments:read, claims:read, claims:write, svcpay:read, svcpay:write, integrations:read, and users:admin (user management and the audit log).',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: ErrorSchema, OAuthError: OAUTH_ERROR_SCHEMA },
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'next-auth.session-token' },
        bearerSession: { type: 'http', scheme: 'bearer', description: 'The session token, for server callers' },
        cronBearer: { type: 'http', scheme: 'bearer', description: 'CRON_SECRET, for scheduled jobs' },
        webhookSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Svc-Signature',
          description: 'hex HMAC-SHA256 of the raw body',
        },
      },
    },
  };
}

// RFC 6749 section 5.2: the error body of an OAuth token endpoint (errorFormat 'oauth').
const OAUTH_ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
} as const;
