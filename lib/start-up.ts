// Server start (called from instrumentation.ts): parse config (a malformed value stops the server here),
// log the mode and any feature a partial configuration switched off, and in sandbox make sure the demo tenant
// exists.
import { getConfig } from './config';
import { getDb } from './db';
import { getLogger } from './log';
import { ensureDemoTenant } from './demo/demo-tenant';
import { startFhirServices } from './fhir/start-fhir-services';

export async function startUp(): Promise<void> {
  const config = getConfig();
  const log = getLogger();
  log.info({ mode: config.mode, database: config.database.kind }, `starting in ${config.mode} mode`);
  // A partly configured feature is off, not fatal: said once here, and its routes answer their typed 501/503.
  for (const warning of config.warnings) log.warn({ config: 'partial' }, warning);
  await startFhirServices(config, log);
  if (config.mode !== 'sandbox') return;
  const { created } = await ensureDemoTenant({ db: await getDb(), now: new Date(), sealKey: config.sealKey }, config.mode);
  log.info({ created }, created ? 'seeded the sandbox demo tenant' : 'sandbox demo tenant present');
}

/**
 * A process that could not start must not serve: Next would keep it up answering 500 to everything, health
 * included. Exit non-zero so the supervisor (or the operator) sees it and restarts it.
 */
export async function startUpOrExit(): Promise<void> {
  try {
    await startUp();
  } catch (error) {
    console.error('start-up failed:', error instanceof Error ? error.stack ?? error.message : error);
    process.exit(1);
  }
}
