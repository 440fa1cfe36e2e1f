// What the FHIR and EMR side needs at server start: a SMART signing key that cannot be used stops the server here
// (not at the first pull), and the job worker starts with the bulk export queue (jobs are durable rows; a restart
// or another instance resumes them).
import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { importSigningKey } from '../emr/jwks';
import { startJobWorker } from '../jobs/start-job-worker';
import { bulkExportHandler } from './bulk-export/run-bulk-export-job';
import { sandboxRemittanceHandler } from '../claims/sandbox-remittance';
import type { FhirStore } from './fhir-store';

/** `loadJobDeps` is called on every worker tick (the composition root's, passed in by start-up). */
export async function startFhirServices(
  config: Config,
  log: Logger,
  loadJobDeps: () => Promise<{ db: Db; clock: Clock; fhirStore: FhirStore }>,
): Promise<void> {
  if (config.smart) await importSigningKey(config.smart.privateKeyPem);
  // The worker serves every queue of the process; the sandbox remittance queue is filled only in sandbox mode.
  startJobWorker(
    loadJobDeps,
    (deps) => [bulkExportHandler(deps), sandboxRemittanceHandler(deps)],
    log.child({ worker: 'jobs' }),
  );
}
