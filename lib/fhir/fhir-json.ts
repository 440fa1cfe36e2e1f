// The FHIR media types (FHIR R4 http.html#mime; Bulk Data Access for NDJSON). lib/http/fhir-response.ts sends them.
export const FHIR_JSON = 'application/fhir+json';
export const FHIR_NDJSON = 'application/fhir+ndjson';
