// Chooses the FHIR store from config: an external FHIR R4 server when FHIR_STORE_URL is set, else the embedded
// store in the app's database. Called once by lib/deps.ts.
import { hkdfSync } from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db';
import { embeddedFhirStore } from './embedded-fhir-store';
import type { FhirStore } from './fhir-store';
import type { Egress } from '../outbound/egress';
import { restFhirStore } from './rest-fhir-store';

export function buildFhirStore(
  config: Pick<Config, 'fhirStoreUrl' | 'authSecret' | 'sealKey'>,
  db: Db,
  egress?: Egress,
): FhirStore {
  return config.fhirStoreUrl
    ? restFhirStore({ baseUrl: config.fhirStoreUrl, cursorKey: cursorKey(config), ...(egress && { egress }) })
    : embeddedFhirStore(db);
}

/**
 * The external store's cursor-signing key, derived (HKDF, its own label) from AUTH_SECRET, else SEAL_KEY, so
 * cursors verify in every instance and bundle of the deployment. Neither set: the store's per-instance random
 * key (search needs a session, and sessions need AUTH_SECRET, so that case serves only the export worker).
 */
function cursorKey(config: Pick<Config, 'authSecret' | 'sealKey'>): Buffer | undefined {
  const secret = config.authSecret ?? config.sealKey;
  return secret
    ? Buffer.from(hkdfSync('sha256', secret, 'svc-fhir-store-cursor', 'external FHIR store search cursor v1', 32))
    : undefined;
}
