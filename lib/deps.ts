// Composition root: the real adapters, built from config the first time a route needs them, so an
// unconfigured integration fails only on the routes that use it. Domain code receives what it needs from
// here as its first argument and never imports adapters itself.
import { getConfig, type Config } from './config';
import { getDb, type Db } from './db';
import { systemClock, type Clock } from './clock';
import { AppError } from './errors';
import { coreTransport } from './eligibility/core-transport';
import { sandboxPayer } from './eligibility/sandbox-payer';
import type { PayerTransport } from './eligibility/payer-transport';
import { buildFhirStore } from './fhir/build-fhir-store';
import type { FhirStore } from './fhir/fhir-store';
import { createEgress, type Egress } from './outbound/egress';

export type Deps = {
  db: Db;
  clock: Clock;
  config: Config;
  /**
   * The eligibility payer, built on first read: the live CAQH CORE transport when ELIGIBILITY_CORE_* is set,
   * else the sandbox payer in sandbox mode. Production without a live transport throws AppError
   * DEPENDENCY_UNAVAILABLE, so a route that reads it first refuses before any work (no writes, no network).
   */
  readonly payer: PayerTransport;
  /** The FHIR store, built on first read: external over REST when FHIR_STORE_URL is set, else embedded. */
  readonly fhirStore: FhirStore;
  /** Every outside call goes through it (lib/outbound/egress.ts): the egress policy for SVC_ENV and EMR_ALLOWED_ORIGINS. */
  readonly egress: Egress;
};

const globalForDeps = globalThis as unknown as { __payer?: PayerTransport; __egress?: Egress };
// Per module instance: instrumentation (the bulk export worker) and the route handlers are separate bundles,
// and each builds its own store. (Their AppErrors still agree: isAppError checks a brand, not instanceof.)
let fhirStore: FhirStore | undefined;

function buildPayer(config: Config, clock: Clock): PayerTransport {
  if (config.eligibilityCore) return coreTransport({ ...config.eligibilityCore, clock, egress: egressFor(config) });
  // Sandbox behaviour is keyed on SVC_ENV alone: production never answers with demo coverage.
  if (config.mode === 'sandbox') return sandboxPayer(clock);
  throw new AppError('DEPENDENCY_UNAVAILABLE', 'Eligibility checks are not configured', {
    cause: new Error('unconfigured: ELIGIBILITY_CORE_URL (production has no sandbox payer)'),
  });
}

// One per process: its connection pools are shared by every request.
function egressFor(config: Config): Egress {
  globalForDeps.__egress ??= createEgress({ mode: config.mode, allowedOrigins: config.emrAllowedOrigins });
  return globalForDeps.__egress;
}

export async function getDeps(): Promise<Deps> {
  const config = getConfig();
  const clock = systemClock;
  const db = await getDb();
  return {
    db,
    clock,
    config,
    get payer() {
      globalForDeps.__payer ??= buildPayer(config, clock);
      return globalForDeps.__payer;
    },
    get fhirStore() {
      fhirStore ??= buildFhirStore(config, db);
      return fhirStore;
    },
    get egress() {
      return egressFor(config);
    },
  };
}
