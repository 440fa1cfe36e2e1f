// Chooses the FHIR store from config: an external FHIR R4 server when FHIR_STORE_URL is set, else the embedded
// store in the app's database. Called once by lib/deps.ts.
import type { Config } from '../config';
import type { Db } from '../db';
import { embeddedFhirStore } from './embedded-fhir-store';
import type { FhirStore } from './fhir-store';
import { restFhirStore } from './rest-fhir-store';

export function buildFhirStore(config: Pick<Config, 'fhirStoreUrl'>, db: Db): FhirStore {
  return config.fhirStoreUrl ? restFhirStore({ baseUrl: config.fhirStoreUrl }) : embeddedFhirStore(db);
}
