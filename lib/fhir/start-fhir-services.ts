// What the FHIR and EMR side needs at server start: a SMART signing key that cannot be used stops the server here
// (not at the first pull), and the bulk export worker starts (jobs are durable rows; a restart resumes them).
import type { Config } from '../config';
import { getDeps } from '../deps';
import type { Logger } from '../log';
import { importSigningKey } from '../emr/jwks';
import { startBulkExportWorker } from './bulk-export/bulk-export-worker';

export async function startFhirServices(config: Config, log: Logger): Promise<void> {
  if (config.smart) await importSigningKey(config.smart.privateKeyPem);
  startBulkExportWorker(getDeps, log.child({ worker: 'bulk-export' }));
}
