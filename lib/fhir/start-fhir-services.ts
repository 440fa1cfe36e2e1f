// What the FHIR and EMR side needs at server start: a SMART signing key that cannot be used stops the server here
// (not at the first pull). Its background work (the bulk export queue) is declared with every other queue by
// start-up (lib/start-up.ts, on pg-boss).
import type { Config } from '../config';
import { importSigningKey } from '../emr/jwks';

export async function startFhirServices(config: Config): Promise<void> {
  if (config.smart) await importSigningKey(config.smart.privateKeyPem);
}
