// FHIR responses: application/fhir+json (FHIR R4 http.html#mime), never cached (the bodies are PHI).
export const FHIR_JSON = 'application/fhir+json';
export const FHIR_NDJSON = 'application/fhir+ndjson';

export function fhirJson(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    ...init,
    headers: { 'content-type': `${FHIR_JSON}; charset=utf-8`, 'cache-control': 'no-store', ...Object.fromEntries(new Headers(init.headers)) },
  });
}
