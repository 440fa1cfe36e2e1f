// Server start (called from instrumentation.ts): parse config (a malformed value stops the server here),
// log the mode and any feature a partial configuration switched off, start the FHIR side, in sandbox make sure the
// demo tenant exists, then start the job engine as APP_ROLE says (start-background-work.ts), seeding the demo's
// history (DEMO_HISTORY=on) once its queues exist and before any job is worked.
import { getDeps, requireClearinghouse, requireFhirStore, requirePayer } from './deps';
import { ensureDemoTenant } from './demo/demo-tenant';
import { seedDemoHistory } from './demo/seed-demo-history';
import { startFhirServices } from './fhir/start-fhir-services';
import { startBackgroundWork } from './start-background-work';

export async function startUp(): Promise<void> {
  const deps = await getDeps();
  const { config, log } = deps;
  log.info({ mode: config.mode, database: config.database.kind }, `starting in ${config.mode} mode`);
  // A partly configured feature is off, not fatal: said once here, and its routes answer their typed 501/503.
  for (const warning of config.warnings) log.warn({ config: 'partial' }, warning);
  await startFhirServices(config);
  if (config.mode === 'sandbox') {
    const { created } = await ensureDemoTenant({ db: deps.db, now: new Date(), sealKey: config.sealKey }, config.mode);
    log.info({ created }, created ? 'seeded the sandbox demo tenant' : 'sandbox demo tenant present');
  }
  await startBackgroundWork({
    ...deps,
    fhirStore: requireFhirStore(deps),
    payer: () => requirePayer(deps),
    // Live CORE when CLEARINGHOUSE_* is set, the sandbox's in sandbox mode; production without one has none.
    clearinghouse: () =>
      deps.config.clearinghouse || deps.config.mode === 'sandbox' ? requireClearinghouse(deps) : null,
    beforeWork: async () => {
      if (config.mode !== 'sandbox' || !config.demoHistory) return;
      const started = Date.now();
      // The history is only something to look at: a seed that fails is logged and the demo serves without it.
      try {
        const { seeded, claims } = await seedDemoHistory({ db: deps.db, now: new Date(), config: deps.config });
        const ms = Date.now() - started;
        log.info({ seeded, claims, ms }, seeded ? 'seeded the demo history' : 'demo history present');
      } catch (error) {
        log.error({ err: error instanceof Error ? error.message : String(error) }, 'demo history seed failed');
      }
    },
  });
}

/**
 * A process that could not start must not serve: Next would keep it up answering 500 to everything, health
 * included. Exit non-zero so the supervisor (or the operator) sees it and restarts it.
 */
export async function startUpOrExit(): Promise<void> {
  try {
    await startUp();
  } catch (error) {
    console.error('start-up failed:', error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  }
}
