// Composition root: the real adapters, built from config. Domain code receives what it needs from here as its
// first argument and never imports adapters (nor this module, at runtime) itself. The edge (lib/http, server
// components) and start-up call getDeps(); only here, start-up, middleware and scripts call getConfig().
import { getConfig, type Config } from './config';
import { getDb, type Db } from './db';
import { systemClock, type Clock } from './clock';
import { AppError } from './errors';
import { createLogger, type Logger } from './log';
import { coreTransport } from './eligibility/core-transport';
import { sandboxPayer } from './eligibility/sandbox-payer';
import type { PayerTransport } from './eligibility/payer-transport';
import { buildFhirStore } from './fhir/build-fhir-store';
import type { FhirStore } from './fhir/fhir-store';
import { createEgress, type Egress } from './outbound/egress';
import type { ClearinghouseTransport } from './clearinghouse/clearinghouse-transport';
import { coreClearinghouse } from './clearinghouse/core-clearinghouse';
import { sandboxClearinghouse } from './clearinghouse/sandbox-clearinghouse';

export type Deps = {
  db: Db;
  clock: Clock;
  config: Config;
  /** The process's root logger; a request logs through a child carrying its correlation id. */
  log: Logger;
  /** Every outside call goes through it (lib/outbound/egress.ts): the egress policy for SVC_ENV and EMR_ALLOWED_ORIGINS. */
  egress: Egress;
};

// One per process (its connection pools and the logger are shared by every request and by both bundles).
const perProcess = globalThis as unknown as {
  __payer?: PayerTransport;
  __clearinghouse?: ClearinghouseTransport;
  __egress?: Egress;
  __log?: Logger;
};
// Per module instance: instrumentation (the job worker) and the route handlers are separate bundles, and each
// builds its own store. (Their AppErrors still agree: isAppError checks a brand, not instanceof.)
let fhirStore: FhirStore | undefined;

export async function getDeps(): Promise<Deps> {
  const config = getConfig();
  perProcess.__log ??= createLogger(config.logLevel);
  perProcess.__egress ??= createEgress({ mode: config.mode, allowedOrigins: config.emrAllowedOrigins });
  return {
    db: await getDb(config.database),
    clock: systemClock,
    config,
    log: perProcess.__log,
    egress: perProcess.__egress,
  };
}

/**
 * The eligibility payer, built once per process: the live CAQH CORE transport when ELIGIBILITY_CORE_* is set, else
 * the sandbox payer in sandbox mode. Production without a live transport throws AppError DEPENDENCY_UNAVAILABLE, so
 * a route that asks for it before calling the domain refuses before any work (no writes, no network).
 */
export function requirePayer(deps: Pick<Deps, 'config' | 'clock' | 'egress'>): PayerTransport {
  perProcess.__payer ??= buildPayer(deps);
  return perProcess.__payer;
}

function buildPayer({ config, clock, egress }: Pick<Deps, 'config' | 'clock' | 'egress'>): PayerTransport {
  if (config.eligibilityCore) return coreTransport({ ...config.eligibilityCore, clock, egress });
  // Sandbox behaviour is keyed on SVC_ENV alone: production never answers with demo coverage.
  if (config.mode === 'sandbox') return sandboxPayer(clock);
  throw new AppError('DEPENDENCY_UNAVAILABLE', 'Eligibility checks are not configured', {
    cause: new Error('unconfigured: ELIGIBILITY_CORE_URL (production has no sandbox payer)'),
  });
}

/**
 * The claims clearinghouse, built once per process: CAQH CORE when CLEARINGHOUSE_* is set, else the sandbox
 * clearinghouse in sandbox mode. Production without one throws AppError DEPENDENCY_UNAVAILABLE, so a route that
 * asks for it first refuses before any work (no writes, no network).
 */
export function requireClearinghouse(deps: Pick<Deps, 'config' | 'clock' | 'egress' | 'db'>): ClearinghouseTransport {
  perProcess.__clearinghouse ??= buildClearinghouse(deps);
  return perProcess.__clearinghouse;
}

function buildClearinghouse({ config, clock, egress, db }: Pick<Deps, 'config' | 'clock' | 'egress' | 'db'>) {
  const live = config.clearinghouse;
  if (live) {
    const { url, username, password, senderId, receiverId } = live;
    return coreClearinghouse({
      url,
      username,
      password,
      clock,
      egress,
      parties: {
        senderId,
        receiverId,
        receiverName: live.receiverName,
        contactPhone: live.contactPhone,
        usageIndicator: 'P',
      },
    });
  }
  if (config.mode === 'sandbox') return sandboxClearinghouse({ clock, db });
  throw new AppError('DEPENDENCY_UNAVAILABLE', 'Claim submission is not available', {
    cause: new Error('unconfigured: CLEARINGHOUSE_URL (production has no sandbox clearinghouse)'),
  });
}

/** The FHIR store, built once per bundle: external over REST when FHIR_STORE_URL is set, else embedded. */
export function requireFhirStore(deps: Pick<Deps, 'config' | 'db'>): FhirStore {
  fhirStore ??= buildFhirStore(deps.config, deps.db);
  return fhirStore;
}
