// Where the sandbox EHR lives inside this app (sandbox mode only), its fixed demo client, and the EMR_VENDORS
// value the demo start points at it. Owns names and URLs only; the EHR's behaviour is in the modules beside it.
import type { Config, EmrVendorEntry } from '../config';
import { AppError } from '../errors';

export const SANDBOX_EHR_PREFIX = '/api/sandbox-ehr';
/** The browser authorize page: a page of this app (it needs the signed-in staff user), outside /api. */
export const SANDBOX_EHR_AUTHORIZE_PATH = '/sandbox-ehr/authorize';
/** The demo tenant's clinics (DECISIONS "Demo tenant"), bound to their sandbox Groups by the demo start. */
export const DEMO_CLINIC_IDS = ['clinic_north', 'clinic_south'] as const;
/** The client id the sandbox EHR registers for browser (SMART App Launch) connections. */
export const SANDBOX_EHR_DEMO_CLIENT_ID = 'sandbox-ehr-demo';

export type SandboxEhrUrls = {
  fhirBaseUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  bulkStatusUrl: string;
  bulkFilesUrl: string;
};

export function sandboxEhrUrls(appUrl: string): SandboxEhrUrls {
  return {
    fhirBaseUrl: `${appUrl}${SANDBOX_EHR_PREFIX}/fhir`,
    authorizeUrl: `${appUrl}${SANDBOX_EHR_AUTHORIZE_PATH}`,
    tokenUrl: `${appUrl}${SANDBOX_EHR_PREFIX}/token`,
    bulkStatusUrl: `${appUrl}${SANDBOX_EHR_PREFIX}/bulk-status`,
    bulkFilesUrl: `${appUrl}${SANDBOX_EHR_PREFIX}/bulk-files`,
  };
}

/** The EHR Group holding a clinic's synthetic patients. FHIR ids allow no "_", so clinic_north is clinic-north. */
export const sandboxGroupId = (clinicId: string) => `grp-${clinicId.replace(/[^A-Za-z0-9]/g, '-')}`.slice(0, 64);

/**
 * EMR_VENDORS for the sandbox demo: a browser-oauth entry and a smart-backend entry on the sandbox EHR, the
 * latter binding each demo clinic to its Group. The demo start uses it when EMR_VENDORS is unset; production never.
 */
export function sandboxEhrVendors(
  appUrl: string,
  clinicIds: readonly string[],
): { 'browser-oauth': EmrVendorEntry; 'smart-backend': EmrVendorEntry } {
  const urls = sandboxEhrUrls(appUrl);
  return {
    'browser-oauth': { authorizeUrl: urls.authorizeUrl, tokenUrl: urls.tokenUrl, fhirBaseUrl: urls.fhirBaseUrl },
    'smart-backend': {
      tokenUrl: urls.tokenUrl,
      fhirBaseUrl: urls.fhirBaseUrl,
      groups: Object.fromEntries(clinicIds.map((id) => [id, sandboxGroupId(id)])),
    },
  };
}

/** Every sandbox EHR route and page answers 404 outside sandbox mode: production never serves it. */
export function requireSandbox(config: Pick<Config, 'mode'>): void {
  if (config.mode !== 'sandbox') throw new AppError('NOT_FOUND', 'Not found');
}
