// Reads an error response in either of the API's two error formats: our JSON body, or the OperationOutcome
// FHIR routes answer (code in issue[0].details.coding, message in details.text, correlation id in diagnostics).
export type ErrorFacts = { code: string; message: string; correlationId: string };

export function errorFacts(body: any): ErrorFacts | null {
  if (body?.resourceType === 'OperationOutcome') {
    const issue = body.issue?.[0];
    const correlationId = /correlationId=([^\s;]+)/.exec(issue?.diagnostics ?? '')?.[1];
    return {
      code: issue?.details?.coding?.[0]?.code,
      message: issue?.details?.text,
      correlationId: correlationId as string,
    };
  }
  if (typeof body?.code === 'string')
    return { code: body.code, message: body.message, correlationId: body.correlationId };
  return null;
}
