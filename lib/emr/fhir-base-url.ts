// The FHIR base URL a clinic admin may give a connection: absolute https (http only on loopback, for local
// testing, and never in production), no credentials, query or fragment. Our server fetches its SMART
// configuration, so this is also the SSRF boundary for what an admin can point us at.
import { z } from 'zod';
import type { Config, ServiceMode } from '../config';
import { AppError } from '../errors';
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

/**
 * DECISIONS "Trust boundaries": a smart-backend connection is served with the deployment's SMART registration and
 * its tokens, which go only to the operator's EMR. A FHIR base on it must share the origin of
 * EMR_VENDORS["smart-backend"].fhirBaseUrl (400 otherwise, and always when that entry names none).
 */
export function assertSmartBackendBaseUrl(
  value: string | null | undefined,
  vendor: string,
  config: Pick<Config, 'emrVendors'>,
): void {
  if (!value || vendor !== 'smart-backend') return;
  if (isOperatorOrigin(value, config)) return;
  throw new AppError('VALIDATION_FAILED', 'The request body is not valid', {
    issues: [{ path: 'body.fhirBaseUrl', message: "Must be on the configured SMART backend EMR's server" }],
  });
}

export function isOperatorOrigin(value: string, config: Pick<Config, 'emrVendors'>): boolean {
  const configured = config.emrVendors['smart-backend']?.fhirBaseUrl;
  return !!configured && new URL(value).origin === new URL(configured).origin;
}
