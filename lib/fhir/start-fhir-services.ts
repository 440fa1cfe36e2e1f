// What the FHIR and EMR side needs at server start: a SMART signing key that cannot be used stops the server here
// (not at the first pull), and the job worker starts with the bulk export queue (jobs are durable rows; a restart
// or another instance resumes them).
import type { Config } from '../config';
import { getDeps } from '../deps';
import type { Logger } from '../log';
import { importSigningKey } from '../emr/jwks';
import { startJobWorker } from '../jobs/start-job-worker';
import { bulkExportHandler } from './bulk-export/run-bulk-export-job';

export async function startFhirServices(config: Config, log: Logger): Promise<void> {
  if (config.smart) await importSigningKey(config.smart.privateKeyPem);
  // Only what the jobs need: spreading Deps would also build every other lazily built adapter.
  startJobWorker(
    async () => {
      const { db, clock, fhirStore } = await getDeps();
      return { db, clock, fhirStore };
    },
    (deps) => [bulkExportHandler(deps)],
    log.child({ worker: 'jobs' }),
  );
}
