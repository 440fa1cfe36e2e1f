// FHIR answers at the edge: resources and Bundles as application/fhir+json (FHIR R4 http.html#mime), never cached
// (the bodies are PHI); a read adds ETag and Last-Modified (http.html#read). Errors: error-response.ts.
import { FHIR_JSON } from '../fhir/fhir-json';
import type { StoredResource } from '../fhir/fhir-store';

export function fhirResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    ...init,
    headers: {
      'content-type': `${FHIR_JSON}; charset=utf-8`,
      'cache-control': 'no-store',
      ...Object.fromEntries(new Headers(init.headers)),
    },
  });
}

/** Renderer of the FHIR endpoints whose result is the resource or Bundle to send as it is. */
export const renderFhir = (body: unknown): Response => fhirResponse(body);

/** Renderer of a FHIR read: the version as a weak ETag, W/"versionId", and meta.lastUpdated as Last-Modified. */
export function renderFhirRead(resource: StoredResource): Response {
  const lastModified = new Date(resource.meta.lastUpdated);
  return fhirResponse(resource, {
    headers: {
      etag: `W/"${resource.meta.versionId}"`,
      ...(!Number.isNaN(lastModified.getTime()) && { 'last-modified': lastModified.toUTCString() }),
    },
  });
}
