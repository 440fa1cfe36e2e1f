// Typed configuration: the only module that reads process.env. Parsed lazily (next build needs no secrets),
// once per process. Malformed values fail at server start (instrumentation.ts); absent ones switch a feature
// off, and the require* accessors below refuse such a request before any work, with DECISIONS.md's status.
import { z } from 'zod';
import { AppError } from './errors';

export type ServiceMode = 'sandbox' | 'production';
export const APP_ROLES = ['all', 'web', 'worker'] as const;
export type AppRole = (typeof APP_ROLES)[number];
export const WEBHOOK_RECEIVERS = ['payment', 'fax', 'emr', 'transfer', 'banking', 'era'] as const;
export type WebhookReceiver = (typeof WEBHOOK_RECEIVERS)[number];
export const EMR_VENDOR_KINDS = ['generic-fhir', 'browser-oauth', 'smart-backend', 'partner-api'] as const;
export type EmrVendorKind = (typeof EMR_VENDOR_KINDS)[number];

const optional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));
const url = z.url({ protocol: /^https?$/ });

// `groups` (smart-backend only): the operator's binding, clinic id → the EHR Group id of that clinic's patients, or
// "*" for the whole population the registration sees (DECISIONS "Trust boundaries").
const VendorEntry = z.object({
  authorizeUrl: url.optional(),
  tokenUrl: url.optional(),
  fhirBaseUrl: url.optional(),
  groups: z.record(z.string().min(1), z.string().min(1).max(200)).optional(),
});
const PartnerAccounts = z.record(z.string().min(1), z.string().min(1).max(200));
const EmrVendors = z.partialRecord(z.enum(EMR_VENDOR_KINDS), VendorEntry);

export type EmrVendorEntry = z.infer<typeof VendorEntry>;

export type Config = {
  mode: ServiceMode;
  port: number;
  /** Address the server binds: loopback in sandbox (its demo users have a published password) unless HOST says. */
  host: string;
  appUrl: string;
  /**
   * `poolSize`: this instance's PostgreSQL connections (DATABASE_POOL_SIZE). With several instances on one server,
   * instances × poolSize must stay below the server's max_connections minus a margin for admin and migrations.
   * `poolTimeoutMs` (DATABASE_POOL_TIMEOUT_MS): the longest a request waits for one of them before it is 503.
   * `directUrl` (DATABASE_DIRECT_URL): the server itself when `url` is a transaction-pooling PgBouncer; migrations
   * and session advisory locks go there, and the app then sends no named prepared statement through `url`.
   */
  database:
    | { kind: 'postgres'; url: string; poolSize?: number; poolTimeoutMs?: number; directUrl?: string }
    | { kind: 'pglite'; dataDir: string };
  authSecret?: string;
  stepUpSecret?: string;
  sealKey?: Buffer;
  webauthn?: { rpId: string; rpName: string; origin: string };
  eligibilityCore?: { url: string; username: string; password: string; senderId: string; receiverId: string };
  /**
   * CLEARINGHOUSE_*: the claims clearinghouse over CAQH CORE (batch 837, real-time 276/277). `contactPhone`
   * (CLEARINGHOUSE_CONTACT_PHONE, optional, 10 digits) is the 837P's 1000A EDI contact telephone; without it the
   * contact is the submitting user's email (the TR3 asks for one communication number, either kind);
   * `receiverName` (CLEARINGHOUSE_RECEIVER_NAME) its 1000B name, the receiver id when unset.
   */
  clearinghouse?: {
    url: string;
    username: string;
    password: string;
    senderId: string;
    receiverId: string;
    receiverName: string;
    contactPhone?: string;
  };
  webhookSecrets: Partial<Record<WebhookReceiver, string[]>>;
  emrVendors: Partial<Record<EmrVendorKind, EmrVendorEntry>>;
  smart?: {
    clientId: string;
    privateKeyPem: string;
    keyId: string;
    /**
     * The key this one replaced, published beside it for 7 days after `rotatedAt` (DECISIONS "Security findings
     * of 2026-11-28", EMR pulls): SMART_PREVIOUS_KEY (its PEM, public or private; only the public half is
     * served), SMART_PREVIOUS_KEY_ID, SMART_KEY_ROTATED_AT.
     */
    previous?: { pem: string; keyId: string; rotatedAt: Date };
  };
  partnerApi?: { url: string; apiKey: string };
  /** PARTNER_API_ACCOUNTS: clinic id → the partner's account id (the binding); absent clinic = 403. */
  partnerAccounts: Record<string, string>;
  /** EMR_ALLOWED_ORIGINS: EHR origins that may resolve to private addresses (on-premises EHRs). */
  emrAllowedOrigins: string[];
  fhirStoreUrl?: string;
  cronSecret?: string;
  /**
   * TRUSTED_PROXY_HOPS: how many X-Forwarded-For entries this deployment's own proxies add (default 0). The sign-in
   * throttle counts a client by the entry that many hops from the socket's peer (lib/auth/client-address.ts).
   */
  trustedProxyHops: number;
  /**
   * APP_ROLE: `all` serves and works jobs, `web` serves and works none, `worker` works jobs and runs schedules and
   * serves only /api/health (servesPath).
   */
  appRole: AppRole;
  halted: boolean;
  /**
   * DEMO_HISTORY=on (sandbox only): seed the demo tenant's 90 days of history once (lib/demo/seed-demo-history.ts).
   * `npm start` turns it on; test apps leave it off, so their demo lists hold only the ruled demo records.
   */
  demoHistory: boolean;
  logLevel: string;
  /** Features switched off because their group is only partly set: logged once at boot, never fatal. */
  warnings: string[];
} & CdsHooksConfig;

// ---- CDS Hooks (issue #23, DECISIONS "CDS Hooks"): its own block, parsed by parseCdsHooks below. ----
export type CdsClient = { jwksUrl: string; clinicId: string };
export type CdsHooksConfig = {
  /** CDS_CLIENTS: JWT issuer → its JWKS URL and the one clinic it is bound to; undefined = CDS Hooks off (501). */
  cdsClients?: Record<string, CdsClient>;
  /** CDS_KNOWLEDGE_BASE_URL: the payer-rules JSON document; unset = embedded (sandbox) or 501 (production). */
  cdsKnowledgeBaseUrl?: string;
};

/** node-postgres' own default, kept: 3 instances × 10 fit PostgreSQL's default max_connections of 100. */
const DEFAULT_POOL_SIZE = 10;
/** DECISIONS "Fleet operations": a saturated instance sheds load after 5 s rather than queueing without limit. */
export const DEFAULT_POOL_TIMEOUT_MS = 5000;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * SVC_ENV wins. Unset means sandbox only on the embedded database: with DATABASE_URL set, a deployment must say
 * which it is (DECISIONS "Environments"), so it never drifts into sandbox and never seeds demo users there.
 */
export function resolveMode(env: Record<string, string | undefined>): ServiceMode {
  const explicit = env.SVC_ENV?.trim();
  if (explicit === 'sandbox' || explicit === 'production') return explicit;
  if (explicit) throw new ConfigError(`SVC_ENV must be sandbox or production, got ${JSON.stringify(explicit)}`);
  if (env.DATABASE_URL?.trim()) {
    throw new ConfigError('SVC_ENV must be set (sandbox or production) when DATABASE_URL names a database server');
  }
  return 'sandbox';
}

/**
 * A group of variables is all-or-nothing. A partly set group switches its feature off and adds a warning naming
 * what is missing (a deployment waiting for a credential still serves everything else); it never stops start-up.
 */
function group<K extends string>(
  env: Record<string, string | undefined>,
  keys: readonly K[],
  warnings: string[],
): Record<K, string> | undefined {
  const present = keys.filter((k) => env[k]?.trim());
  if (present.length === 0) return undefined;
  const missing = keys.filter((k) => !env[k]?.trim());
  if (missing.length) {
    warnings.push(`${missing.join(', ')} not set (${present.join(', ')} is): that feature is off`);
    return undefined;
  }
  return Object.fromEntries(keys.map((k) => [k, env[k]!.trim()])) as Record<K, string>;
}

function parsePreviousKey(
  group: Record<'SMART_PREVIOUS_KEY' | 'SMART_PREVIOUS_KEY_ID' | 'SMART_KEY_ROTATED_AT', string>,
  currentKeyId: string,
): { pem: string; keyId: string; rotatedAt: Date } {
  const pem = group.SMART_PREVIOUS_KEY.replace(/\\n/g, '\n');
  if (!pem.includes('-----BEGIN')) throw new ConfigError('SMART_PREVIOUS_KEY must be a PEM key');
  if (group.SMART_PREVIOUS_KEY_ID === currentKeyId)
    throw new ConfigError('SMART_PREVIOUS_KEY_ID must differ from SMART_KEY_ID');
  const rotatedAt = parseWith(z.iso.datetime({ offset: true }), group.SMART_KEY_ROTATED_AT, 'SMART_KEY_ROTATED_AT');
  return { pem, keyId: group.SMART_PREVIOUS_KEY_ID, rotatedAt: new Date(rotatedAt) };
}

function parseJsonVariable(value: string | undefined, name: string): unknown {
  if (!value) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw new ConfigError(`${name} must be JSON`);
  }
}

function parseOrigins(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const parsed = parseWith(url, s, 'EMR_ALLOWED_ORIGINS');
      return new URL(parsed).origin;
    });
}

/**
 * The outside URLs the operator configures, which carry platform credentials and PHI. In production each must be
 * https: an http one is malformed and stops start-up naming the variable (DECISIONS "Security findings of
 * 2026-11-28"), whether or not the rest of its group is set. Sandbox keeps http for the local fakes.
 * (The JWKS URLs inside CDS_CLIENTS are held to the same rule where that variable is parsed.)
 */
export const OUTSIDE_URL_VARIABLES = [
  'ELIGIBILITY_CORE_URL',
  'CLEARINGHOUSE_URL',
  'PARTNER_API_URL',
  'FHIR_STORE_URL',
  'CDS_KNOWLEDGE_BASE_URL',
] as const;

function requireHttpsOutsideUrls(env: Record<string, string | undefined>, vendors: Config['emrVendors']): void {
  const requireHttps = (value: string | undefined, name: string) => {
    if (value === undefined) return;
    let protocol: string;
    try {
      protocol = new URL(value).protocol;
    } catch {
      throw new ConfigError(`${name} is malformed: not a URL`);
    }
    if (protocol !== 'https:') throw new ConfigError(`${name} must be an https: URL in production`);
  };
  for (const name of OUTSIDE_URL_VARIABLES) requireHttps(optional.parse(env[name]), name);
  for (const [vendor, entry] of Object.entries(vendors)) {
    for (const field of ['authorizeUrl', 'tokenUrl', 'fhirBaseUrl'] as const)
      requireHttps(entry?.[field], `EMR_VENDORS["${vendor}"].${field}`);
  }
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown, name: string): T {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new ConfigError(`${name} is malformed: ${result.error.issues.map((i) => i.message).join('; ')}`);
  return result.data;
}

function parseSealKey(value: string): Buffer {
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) throw new ConfigError('SEAL_KEY must be base64 of exactly 32 bytes');
  return key;
}

function parseSecretList(value: string | undefined): string[] | undefined {
  const secrets = value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return secrets?.length ? secrets : undefined;
}

const CONTACT_PHONE = z.string().regex(/^\d{10}$/, 'must be 10 digits, area code first');

/** The clearinghouse once DECISIONS' five variables are set; the contact phone and receiver name are optional. */
function parseClearinghouse(
  group: Record<
    | 'CLEARINGHOUSE_URL'
    | 'CLEARINGHOUSE_USERNAME'
    | 'CLEARINGHOUSE_PASSWORD'
    | 'CLEARINGHOUSE_SENDER_ID'
    | 'CLEARINGHOUSE_RECEIVER_ID',
    string
  >,
  env: Record<string, string | undefined>,
): Config['clearinghouse'] {
  const phone = optional.parse(env.CLEARINGHOUSE_CONTACT_PHONE);
  return {
    url: parseWith(url, group.CLEARINGHOUSE_URL, 'CLEARINGHOUSE_URL'),
    username: group.CLEARINGHOUSE_USERNAME,
    password: group.CLEARINGHOUSE_PASSWORD,
    senderId: group.CLEARINGHOUSE_SENDER_ID,
    receiverId: group.CLEARINGHOUSE_RECEIVER_ID,
    receiverName: optional.parse(env.CLEARINGHOUSE_RECEIVER_NAME) ?? group.CLEARINGHOUSE_RECEIVER_ID,
    contactPhone: phone === undefined ? undefined : parseWith(CONTACT_PHONE, phone, 'CLEARINGHOUSE_CONTACT_PHONE'),
  };
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const mode = resolveMode(env);
  const warnings: string[] = [];
  const port = parseWith(z.coerce.number().int().min(1).max(65535), optional.parse(env.PORT) ?? 3000, 'PORT');
  const host = optional.parse(env.HOST) ?? (mode === 'sandbox' ? '127.0.0.1' : '0.0.0.0');
  const appUrl = parseWith(url, optional.parse(env.APP_URL) ?? `http://localhost:${port}`, 'APP_URL').replace(
    /\/+$/,
    '',
  );
  const databaseUrl = optional.parse(env.DATABASE_URL);
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new ConfigError('DATABASE_URL must be a postgresql:// URL');
  const directUrl = optional.parse(env.DATABASE_DIRECT_URL);
  if (directUrl && !/^postgres(ql)?:\/\//.test(directUrl))
    throw new ConfigError('DATABASE_DIRECT_URL must be a postgresql:// URL');
  if (directUrl && !databaseUrl) throw new ConfigError('DATABASE_DIRECT_URL is set without DATABASE_URL');

  const webauthn = group(env, ['WEBAUTHN_RP_ID', 'WEBAUTHN_RP_NAME', 'WEBAUTHN_ORIGIN'] as const, warnings);
  const core = group(
    env,
    [
      'ELIGIBILITY_CORE_URL',
      'ELIGIBILITY_CORE_USERNAME',
      'ELIGIBILITY_CORE_PASSWORD',
      'ELIGIBILITY_SENDER_ID',
      'ELIGIBILITY_RECEIVER_ID',
    ] as const,
    warnings,
  );
  const clearinghouse = group(
    env,
    [
      'CLEARINGHOUSE_URL',
      'CLEARINGHOUSE_USERNAME',
      'CLEARINGHOUSE_PASSWORD',
      'CLEARINGHOUSE_SENDER_ID',
      'CLEARINGHOUSE_RECEIVER_ID',
    ] as const,
    warnings,
  );
  const smart = group(env, ['SMART_CLIENT_ID', 'SMART_PRIVATE_KEY', 'SMART_KEY_ID'] as const, warnings);
  const previousKey = group(
    env,
    ['SMART_PREVIOUS_KEY', 'SMART_PREVIOUS_KEY_ID', 'SMART_KEY_ROTATED_AT'] as const,
    warnings,
  );
  const partner = group(env, ['PARTNER_API_URL', 'PARTNER_API_KEY'] as const, warnings);
  const vendors = parseJsonVariable(optional.parse(env.EMR_VENDORS), 'EMR_VENDORS') ?? {};
  const partnerAccounts = parseWith(
    PartnerAccounts,
    parseJsonVariable(optional.parse(env.PARTNER_API_ACCOUNTS), 'PARTNER_API_ACCOUNTS') ?? {},
    'PARTNER_API_ACCOUNTS',
  );
  const sealKey = optional.parse(env.SEAL_KEY);
  const smartKey = smart?.SMART_PRIVATE_KEY.replace(/\\n/g, '\n');
  if (smartKey && !smartKey.includes('-----BEGIN'))
    throw new ConfigError('SMART_PRIVATE_KEY must be a PEM private key');

  const emrVendors = parseWith(EmrVendors, vendors, 'EMR_VENDORS');
  if (mode === 'production') requireHttpsOutsideUrls(env, emrVendors);
  for (const [vendor, entry] of Object.entries(emrVendors)) {
    if (entry && !entry.tokenUrl && vendor !== 'partner-api')
      warnings.push(`EMR_VENDORS["${vendor}"] has no tokenUrl: its token exchange is off`);
  }

  return {
    mode,
    port,
    host,
    appUrl,
    database: databaseUrl
      ? {
          kind: 'postgres',
          url: databaseUrl,
          poolSize: parseWith(
            z.coerce.number().int().min(1).max(500),
            optional.parse(env.DATABASE_POOL_SIZE) ?? DEFAULT_POOL_SIZE,
            'DATABASE_POOL_SIZE',
          ),
          poolTimeoutMs: parseWith(
            z.coerce.number().int().min(1).max(600_000),
            optional.parse(env.DATABASE_POOL_TIMEOUT_MS) ?? DEFAULT_POOL_TIMEOUT_MS,
            'DATABASE_POOL_TIMEOUT_MS',
          ),
          ...(directUrl && { directUrl }),
        }
      : { kind: 'pglite', dataDir: optional.parse(env.PGLITE_DATA_DIR) ?? '.data/pglite' },
    authSecret: optional.parse(env.AUTH_SECRET),
    stepUpSecret: optional.parse(env.STEP_UP_SECRET),
    sealKey: sealKey ? parseSealKey(sealKey) : undefined,
    webauthn: webauthn && {
      rpId: webauthn.WEBAUTHN_RP_ID,
      rpName: webauthn.WEBAUTHN_RP_NAME,
      origin: parseWith(url, webauthn.WEBAUTHN_ORIGIN, 'WEBAUTHN_ORIGIN').replace(/\/+$/, ''),
    },
    eligibilityCore: core && {
      url: parseWith(url, core.ELIGIBILITY_CORE_URL, 'ELIGIBILITY_CORE_URL'),
      username: core.ELIGIBILITY_CORE_USERNAME,
      password: core.ELIGIBILITY_CORE_PASSWORD,
      senderId: core.ELIGIBILITY_SENDER_ID,
      receiverId: core.ELIGIBILITY_RECEIVER_ID,
    },
    clearinghouse: clearinghouse && parseClearinghouse(clearinghouse, env),
    webhookSecrets: Object.fromEntries(
      WEBHOOK_RECEIVERS.map((r) => [r, parseSecretList(env[`WEBHOOK_SECRET_${r.toUpperCase()}`])]).filter(([, v]) => v),
    ),
    emrVendors,
    smart: smart && {
      clientId: smart.SMART_CLIENT_ID,
      privateKeyPem: smartKey!,
      keyId: smart.SMART_KEY_ID,
      ...(previousKey && { previous: parsePreviousKey(previousKey, smart.SMART_KEY_ID) }),
    },
    partnerApi: partner && {
      url: parseWith(url, partner.PARTNER_API_URL, 'PARTNER_API_URL').replace(/\/+$/, ''),
      apiKey: partner.PARTNER_API_KEY,
    },
    partnerAccounts,
    emrAllowedOrigins: parseOrigins(optional.parse(env.EMR_ALLOWED_ORIGINS)),
    fhirStoreUrl: env.FHIR_STORE_URL?.trim()
      ? parseWith(url, env.FHIR_STORE_URL.trim(), 'FHIR_STORE_URL').replace(/\/+$/, '')
      : undefined,
    cronSecret: optional.parse(env.CRON_SECRET),
    trustedProxyHops: parseWith(
      z.coerce.number().int().min(0).max(10),
      optional.parse(env.TRUSTED_PROXY_HOPS) ?? 0,
      'TRUSTED_PROXY_HOPS',
    ),
    appRole: parseWith(z.enum(APP_ROLES), optional.parse(env.APP_ROLE) ?? 'all', 'APP_ROLE'),
    halted: env.SVC_HALT?.trim() === '1',
    demoHistory:
      mode === 'sandbox' &&
      parseWith(z.enum(['on', 'off']), optional.parse(env.DEMO_HISTORY) ?? 'off', 'DEMO_HISTORY') === 'on',
    logLevel: optional.parse(env.LOG_LEVEL) ?? 'info',
    warnings,
    ...parseCdsHooks(env, mode),
  };
}

// In production both kinds of URL must be https (a JWKS decides whose signatures we trust; the rules decide what
// clinicians are told); sandbox also takes http, for the local fakes.
function parseCdsHooks(env: Record<string, string | undefined>, mode: ServiceMode): CdsHooksConfig {
  const outside = mode === 'production' ? z.url({ protocol: /^https$/ }) : url;
  const clients = parseJsonVariable(optional.parse(env.CDS_CLIENTS), 'CDS_CLIENTS');
  const kbUrl = optional.parse(env.CDS_KNOWLEDGE_BASE_URL);
  return {
    cdsClients:
      clients === undefined
        ? undefined
        : parseWith(
            z.record(
              z.string().min(1).max(500),
              z.object({ jwksUrl: outside, clinicId: z.string().min(1).max(100) }).strict(),
            ),
            clients,
            'CDS_CLIENTS',
          ),
    cdsKnowledgeBaseUrl: kbUrl === undefined ? undefined : parseWith(outside, kbUrl, 'CDS_KNOWLEDGE_BASE_URL'),
  };
}

let cached: Config | undefined;

/** The process's config. Called by the composition root (lib/deps.ts), start-up, middleware and scripts only. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

// ---- Feature accessors: each refuses before any work, with a neutral message (the log names the key). They take
// the config they check (deps.config): only the composition root and start-up call getConfig(). ----

function refuse(code: 'NOT_CONFIGURED' | 'DEPENDENCY_UNAVAILABLE', message: string, missing: string): never {
  throw new AppError(code, message, { cause: new Error(`unconfigured: ${missing}`) });
}

export function requireAuthSecret(config: Pick<Config, 'authSecret'>): string {
  return config.authSecret ?? refuse('DEPENDENCY_UNAVAILABLE', 'Sign-in is not available', 'AUTH_SECRET');
}

export function requireStepUpSecret(config: Pick<Config, 'stepUpSecret'>): string {
  return (
    config.stepUpSecret ?? refuse('DEPENDENCY_UNAVAILABLE', 'Step-up authentication is not available', 'STEP_UP_SECRET')
  );
}

export function requireSealKey(config: Pick<Config, 'sealKey'>): Buffer {
  return config.sealKey ?? refuse('DEPENDENCY_UNAVAILABLE', 'Secure storage is not available', 'SEAL_KEY');
}

export function requireWebAuthn(config: Pick<Config, 'webauthn'>): NonNullable<Config['webauthn']> {
  return config.webauthn ?? refuse('DEPENDENCY_UNAVAILABLE', 'Passkeys are not available', 'WEBAUTHN_RP_ID');
}

export function requireSmart(config: Pick<Config, 'smart'>): NonNullable<Config['smart']> {
  return config.smart ?? refuse('NOT_CONFIGURED', 'SMART Backend Services is not configured', 'SMART_CLIENT_ID');
}

export function requirePartnerApi(config: Pick<Config, 'partnerApi'>): NonNullable<Config['partnerApi']> {
  return config.partnerApi ?? refuse('NOT_CONFIGURED', 'The partner API is not configured', 'PARTNER_API_URL');
}

export function requireCronSecret(config: Pick<Config, 'cronSecret'>): string {
  return config.cronSecret ?? refuse('DEPENDENCY_UNAVAILABLE', 'Scheduled jobs are not available', 'CRON_SECRET');
}

/** The payment receiver moves money (503 when unset); the others are integrations (501). */
export function requireWebhookSecrets(config: Pick<Config, 'webhookSecrets'>, receiver: WebhookReceiver): string[] {
  const secrets = config.webhookSecrets[receiver];
  if (secrets) return secrets;
  return receiver === 'payment'
    ? refuse('DEPENDENCY_UNAVAILABLE', 'This webhook receiver is not available', 'WEBHOOK_SECRET_PAYMENT')
    : refuse('NOT_CONFIGURED', 'This webhook receiver is not configured', `WEBHOOK_SECRET_${receiver.toUpperCase()}`);
}

/** The one path an APP_ROLE=worker instance answers: its supervisor's health check. */
const WORKER_SERVED_PATH = '/api/health';

/** Whether this instance answers requests for `path`: every path, except on a worker (DECISIONS "Fleet operations"). */
export function servesPath(config: Pick<Config, 'appRole'>, path: string): boolean {
  return config.appRole !== 'worker' || path === WORKER_SERVED_PATH;
}

/** The refusal a worker gives any other request: 503 (a load balancer or a webhook sender tries again elsewhere). */
export const WORKER_REFUSAL = 'This instance does background work only; send requests to a web instance';

export function assertServesPath(config: Pick<Config, 'appRole'>, path: string): void {
  if (!servesPath(config, path)) refuse('DEPENDENCY_UNAVAILABLE', WORKER_REFUSAL, 'APP_ROLE=worker');
}

/** SVC_HALT=1 halts every money route. */
export function assertNotHalted(config: Pick<Config, 'halted'>): void {
  if (config.halted) refuse('DEPENDENCY_UNAVAILABLE', 'Money movement is halted', 'SVC_HALT=1');
}
