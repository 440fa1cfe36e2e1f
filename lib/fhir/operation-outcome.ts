// FHIR errors: every /api/fhir/* error is an OperationOutcome (FHIR R4 operationoutcome.html), as FHIR clients
// expect. It carries the same facts as our JSON error body: our code in issue[0].details.coding (system
// ERROR_CODE_SYSTEM), the client-safe message in details.text, the correlation id in diagnostics (and the
// x-correlation-id header), and one more issue per invalid field with its path in `expression`. Builds the
// resource only; lib/http/fhir-response.ts sends it.
import { z } from 'zod';
import type { ErrorCode, ErrorIssue } from '../errors';

export const ERROR_CODE_SYSTEM = 'urn:clinic-revenue-platform:error-code';

// FHIR issue-type value set (http://hl7.org/fhir/ValueSet/issue-type) per code.
const ISSUE_TYPE: Partial<Record<ErrorCode, string>> = {
  VALIDATION_FAILED: 'invalid',
  UNAUTHENTICATED: 'login',
  FORBIDDEN: 'forbidden',
  SCOPE_MISSING: 'forbidden',
  OUT_OF_SCOPE: 'forbidden',
  NOT_FOUND: 'not-found',
  UNPROCESSABLE: 'processing',
  RATE_LIMITED: 'throttled',
  NOT_CONFIGURED: 'not-supported',
  TRANSPORT_FAILED: 'transient',
  DEPENDENCY_UNAVAILABLE: 'transient',
  IN_PROGRESS: 'informational',
};

export type OperationOutcomeIssue = {
  severity: 'fatal' | 'error' | 'warning' | 'information';
  code: string;
  details?: { coding?: Array<{ system: string; code: string }>; text: string };
  diagnostics?: string;
  expression?: string[];
};

export type OperationOutcome = { resourceType: 'OperationOutcome'; issue: OperationOutcomeIssue[] };

/** The OperationOutcome as the OpenAPI document describes it. */
export const OperationOutcomeSchema = z.looseObject({
  resourceType: z.literal('OperationOutcome'),
  issue: z
    .array(
      z.looseObject({
        severity: z.enum(['fatal', 'error', 'warning', 'information']),
        code: z.string(),
        details: z
          .looseObject({
            coding: z.array(z.object({ system: z.string(), code: z.string() })).optional(),
            text: z.string(),
          })
          .optional(),
        diagnostics: z.string().optional(),
        expression: z.array(z.string()).optional(),
      }),
    )
    .min(1),
});

/** The facts of one error, as our JSON error body carries them. */
type ErrorFacts = { code: ErrorCode; message: string; correlationId: string; issues?: ErrorIssue[] };

export function buildOperationOutcome(body: ErrorFacts): OperationOutcome {
  const main: OperationOutcomeIssue = {
    severity: body.code === 'INTERNAL_ERROR' ? 'fatal' : 'error',
    code: ISSUE_TYPE[body.code] ?? 'exception',
    details: { coding: [{ system: ERROR_CODE_SYSTEM, code: body.code }], text: body.message },
    diagnostics: `correlationId=${body.correlationId}`,
  };
  const fields: OperationOutcomeIssue[] = (body.issues ?? []).map((issue) => ({
    severity: 'error',
    code: 'invalid',
    details: { text: issue.message },
    expression: [issue.path],
  }));
  return { resourceType: 'OperationOutcome', issue: [main, ...fields] };
}

/** An informational OperationOutcome (e.g. the body of a bulk export kick-off). */
export function informationOutcome(text: string): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'information', code: 'informational', details: { text } }],
  };
}
