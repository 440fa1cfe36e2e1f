// The FHIR base URL a clinic admin may give a connection: absolute https (http only on loopback, for local
// testing, and never in production), no credentials, query or fragment. Our server fetches its SMART
// configuration, so this is also the SSRF boundary for what an admin can point us at.
import { z } from 'zod';
import type { ServiceMode } from '../config';
import { AppError } from '../http/errors';
import { parseSecureUrl } from './smart-configuration';

export const FhirBaseUrl = z
  .string()
  .trim()
  .max(500)
  .refine((value) => {
    const url = parseSecureUrl(value);
    return !!url && !url.search && !url.hash;
  }, 'Must be an absolute https URL without credentials, query or fragment')
  .transform((value) => value.replace(/\/+$/, ''));

/** Production refuses loopback http (parseSecureUrl allows it for local testing). */
export function assertFhirBaseUrlAllowed(value: string | undefined, mode: ServiceMode): void {
  if (value === undefined || mode !== 'production' || new URL(value).protocol === 'https:') return;
  throw new AppError('VALIDATION_FAILED', 'The request body is not valid', {
    issues: [{ path: 'body.fhirBaseUrl', message: 'Must be an https URL in production' }],
  });
}
