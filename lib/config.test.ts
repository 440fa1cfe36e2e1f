import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, resolveMode } from './config';

const key = Buffer.alloc(32, 1).toString('base64');

describe('parseConfig', () => {
  it('defaults to sandbox, port 3000, embedded PGlite in .data/pglite, every integration off', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      mode: 'sandbox',
      port: 3000,
      appUrl: 'http://localhost:3000',
      database: { kind: 'pglite', dataDir: '.data/pglite' },
      webhookSecrets: {},
      emrVendors: {},
      halted: false,
      demoHistory: false,
    });
    expect(
      config.authSecret ?? config.sealKey ?? config.smart ?? config.partnerApi ?? config.eligibilityCore,
    ).toBeUndefined();
  });

  it('is sandbox when SVC_ENV is unset only on the embedded database, and refuses other SVC_ENV values', () => {
    expect(resolveMode({})).toBe('sandbox');
    // `next start` always sets NODE_ENV=production: it does not choose the mode.
    expect(resolveMode({ NODE_ENV: 'production' })).toBe('sandbox');
    expect(resolveMode({ SVC_ENV: 'production' })).toBe('production');
    expect(resolveMode({ DATABASE_URL: 'postgresql://db/x', SVC_ENV: 'sandbox' })).toBe('sandbox');
    expect(() => resolveMode({ SVC_ENV: 'staging' })).toThrow(ConfigError);
  });

  it('reads APP_ROLE as all (the default), web or worker, and stops on anything else', () => {
    expect(parseConfig({}).appRole).toBe('all');
    expect(parseConfig({ APP_ROLE: 'web' }).appRole).toBe('web');
    expect(parseConfig({ APP_ROLE: ' worker ' }).appRole).toBe('worker');
    expect(() => parseConfig({ APP_ROLE: 'cron' })).toThrow('APP_ROLE is malformed');
  });

  it('refuses to choose a mode for a database server: SVC_ENV must be set with DATABASE_URL', () => {
    expect(() => parseConfig({ DATABASE_URL: 'postgresql://127.0.0.1/test' })).toThrow('SVC_ENV must be set');
    expect(() => parseConfig({ DATABASE_URL: 'postgresql://127.0.0.1/test', NODE_ENV: 'production' })).toThrow(
      ConfigError,
    );
  });

  it('switches a half-configured group off with a warning naming what is missing, instead of stopping', () => {
    const config = parseConfig({
      ELIGIBILITY_CORE_URL: 'https://core.example/x',
      PARTNER_API_URL: 'https://partner.example',
      SMART_CLIENT_ID: 'c',
    });
    expect(config.eligibilityCore).toBeUndefined();
    expect(config.partnerApi).toBeUndefined();
    expect(config.smart).toBeUndefined();
    expect(config.warnings).toEqual([
      'ELIGIBILITY_CORE_USERNAME, ELIGIBILITY_CORE_PASSWORD, ELIGIBILITY_SENDER_ID, ELIGIBILITY_RECEIVER_ID not set (ELIGIBILITY_CORE_URL is): that feature is off',
      'SMART_PRIVATE_KEY, SMART_KEY_ID not set (SMART_CLIENT_ID is): that feature is off',
      'PARTNER_API_KEY not set (PARTNER_API_URL is): that feature is off',
    ]);
    expect(parseConfig({ PARTNER_API_KEY: 'k' }).warnings).toEqual([
      'PARTNER_API_URL not set (PARTNER_API_KEY is): that feature is off',
    ]);
    // Never the secret's value, only names.
    expect(JSON.stringify(parseConfig({ PARTNER_API_KEY: 'very-secret-value' }).warnings)).not.toContain(
      'very-secret-value',
    );
  });

  it('warns about an EMR_VENDORS entry without a token URL (authorize still works, the exchange is off)', () => {
    const config = parseConfig({
      EMR_VENDORS: JSON.stringify({
        'generic-fhir': { authorizeUrl: 'https://ehr.example/auth', fhirBaseUrl: 'https://ehr.example/fhir' },
      }),
    });
    expect(config.emrVendors['generic-fhir']?.authorizeUrl).toBe('https://ehr.example/auth');
    expect(config.warnings).toEqual(['EMR_VENDORS["generic-fhir"] has no tokenUrl: its token exchange is off']);
  });

  it('listens on loopback in sandbox and on every interface in production unless HOST says otherwise', () => {
    expect(parseConfig({}).host).toBe('127.0.0.1');
    expect(parseConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(parseConfig({ SVC_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(parseConfig({ SVC_ENV: 'production', HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });

  it('reads the operator bindings and the origins allowed to be private addresses', () => {
    const config = parseConfig({
      PARTNER_API_ACCOUNTS: JSON.stringify({ clinic_north: 'acct-17' }),
      EMR_ALLOWED_ORIGINS: 'https://ehr.internal.example:8443/fhir, http://10.1.2.3',
      EMR_VENDORS: JSON.stringify({
        'smart-backend': {
          tokenUrl: 'https://ehr.example/token',
          fhirBaseUrl: 'https://ehr.example/fhir',
          groups: { clinic_north: 'grp-1', clinic_south: '*' },
        },
      }),
    });
    expect(config.partnerAccounts).toEqual({ clinic_north: 'acct-17' });
    expect(config.emrAllowedOrigins).toEqual(['https://ehr.internal.example:8443', 'http://10.1.2.3']);
    expect(config.emrVendors['smart-backend']?.groups).toEqual({ clinic_north: 'grp-1', clinic_south: '*' });
    expect(parseConfig({}).partnerAccounts).toEqual({});
    expect(parseConfig({}).emrAllowedOrigins).toEqual([]);
  });

  it.each([
    ['SEAL_KEY', { SEAL_KEY: Buffer.alloc(16).toString('base64') }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['APP_URL', { APP_URL: 'not a url' }],
    ['EMR_VENDORS', { EMR_VENDORS: '{not json' }],
    ['EMR_VENDORS', { EMR_VENDORS: JSON.stringify({ 'generic-fhir': { tokenUrl: 'ftp://x' } }) }],
    ['PORT', { PORT: '70000' }],
    ['SMART_PRIVATE_KEY', { SMART_CLIENT_ID: 'c', SMART_KEY_ID: 'k', SMART_PRIVATE_KEY: 'not a pem' }],
    ['PARTNER_API_ACCOUNTS', { PARTNER_API_ACCOUNTS: '{not json' }],
    ['PARTNER_API_ACCOUNTS', { PARTNER_API_ACCOUNTS: JSON.stringify({ clinic_north: 17 }) }],
    ['EMR_ALLOWED_ORIGINS', { EMR_ALLOWED_ORIGINS: 'not a url' }],
    ['EMR_VENDORS groups', { EMR_VENDORS: JSON.stringify({ 'smart-backend': { groups: { clinic_north: '' } } }) }],
    ['PARTNER_API_URL', { PARTNER_API_URL: 'ftp://partner.example', PARTNER_API_KEY: 'k' }],
  ])('fails at start on a malformed %s', (_name, env) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
  });

  it('sizes the PostgreSQL pool from DATABASE_POOL_SIZE (default 10) and refuses a malformed size', () => {
    expect(parseConfig({ DATABASE_URL: 'postgresql://db/x', SVC_ENV: 'production' }).database).toEqual({
      kind: 'postgres',
      url: 'postgresql://db/x',
      poolSize: 10,
      poolTimeoutMs: 5000,
    });
    expect(
      parseConfig({ DATABASE_URL: 'postgresql://db/x', SVC_ENV: 'production', DATABASE_POOL_SIZE: '4' }).database,
    ).toMatchObject({ poolSize: 4 });
    expect(() =>
      parseConfig({ DATABASE_URL: 'postgresql://db/x', SVC_ENV: 'production', DATABASE_POOL_SIZE: '0' }),
    ).toThrow(ConfigError);
  });

  it('reads DATABASE_POOL_TIMEOUT_MS (default 5000) and DATABASE_DIRECT_URL, and refuses malformed ones', () => {
    const production = { DATABASE_URL: 'postgresql://pgbouncer:6432/x', SVC_ENV: 'production' };
    expect(
      parseConfig({ ...production, DATABASE_POOL_TIMEOUT_MS: '250', DATABASE_DIRECT_URL: 'postgresql://db:5432/x' })
        .database,
    ).toEqual({
      kind: 'postgres',
      url: 'postgresql://pgbouncer:6432/x',
      poolSize: 10,
      poolTimeoutMs: 250,
      directUrl: 'postgresql://db:5432/x',
    });
    for (const value of ['0', '-5', 'soon', '1.5'])
      expect(() => parseConfig({ ...production, DATABASE_POOL_TIMEOUT_MS: value }), value).toThrow(ConfigError);
    expect(() => parseConfig({ ...production, DATABASE_DIRECT_URL: 'mysql://db/x' })).toThrow(
      'DATABASE_DIRECT_URL must be a postgresql:// URL',
    );
    // A direct address with no pooled one names nothing the app could use it beside.
    expect(() => parseConfig({ DATABASE_DIRECT_URL: 'postgresql://db/x' })).toThrow(ConfigError);
  });

  it('reads TRUSTED_PROXY_HOPS (default 0: the socket address) and refuses a malformed count', () => {
    expect(parseConfig({}).trustedProxyHops).toBe(0);
    expect(parseConfig({ TRUSTED_PROXY_HOPS: ' 2 ' }).trustedProxyHops).toBe(2);
    for (const value of ['-1', '1.5', 'one', '11'])
      expect(() => parseConfig({ TRUSTED_PROXY_HOPS: value }), value).toThrow(ConfigError);
  });

  it('reads comma-listed webhook secrets for rotation and the halt switch', () => {
    const config = parseConfig({ WEBHOOK_SECRET_PAYMENT: ' new , old ,', SVC_HALT: '1', SEAL_KEY: key });
    expect(config.webhookSecrets).toEqual({ payment: ['new', 'old'] });
    expect(config.halted).toBe(true);
    expect(config.sealKey).toEqual(Buffer.alloc(32, 1));
  });
});

describe('outside URLs in production', () => {
  const production = { SVC_ENV: 'production' };
  const complete = {
    ELIGIBILITY_CORE_URL: 'https://core.example/x12',
    ELIGIBILITY_CORE_USERNAME: 'u',
    ELIGIBILITY_CORE_PASSWORD: 'p',
    ELIGIBILITY_SENDER_ID: 's',
    ELIGIBILITY_RECEIVER_ID: 'r',
    CLEARINGHOUSE_URL: 'https://ch.example/core',
    CLEARINGHOUSE_USERNAME: 'u',
    CLEARINGHOUSE_PASSWORD: 'p',
    CLEARINGHOUSE_SENDER_ID: 's',
    CLEARINGHOUSE_RECEIVER_ID: 'r',
    PARTNER_API_URL: 'https://partner.example/api',
    PARTNER_API_KEY: 'k',
    FHIR_STORE_URL: 'https://fhir.example/r4',
    CDS_KNOWLEDGE_BASE_URL: 'https://kb.example/',
    EMR_VENDORS: JSON.stringify({
      'smart-backend': {
        authorizeUrl: 'https://ehr.example/authorize',
        tokenUrl: 'https://ehr.example/token',
        fhirBaseUrl: 'https://ehr.example/fhir',
      },
    }),
  };

  it('starts with every outside URL on https', () => {
    const config = parseConfig({ ...production, ...complete });
    expect(config.clearinghouse?.url).toBe('https://ch.example/core');
    expect(config.eligibilityCore?.url).toBe('https://core.example/x12');
  });

  it.each([
    ['ELIGIBILITY_CORE_URL', 'http://core.example/x12'],
    ['CLEARINGHOUSE_URL', 'http://ch.example/core'],
    ['PARTNER_API_URL', 'http://partner.example/api'],
    ['FHIR_STORE_URL', 'http://fhir.example/r4'],
    ['CDS_KNOWLEDGE_BASE_URL', 'http://kb.example/'],
  ])('stops start-up naming %s when it is http', (name, value) => {
    expect(() => parseConfig({ ...production, ...complete, [name]: value })).toThrow(
      new ConfigError(`${name} must be an https: URL in production`),
    );
  });

  it('stops start-up for an http URL even when the rest of its group is missing', () => {
    expect(() => parseConfig({ ...production, ELIGIBILITY_CORE_URL: 'http://core.example/x12' })).toThrow(
      'ELIGIBILITY_CORE_URL must be an https: URL in production',
    );
    expect(() => parseConfig({ ...production, CLEARINGHOUSE_URL: 'http://127.0.0.1:9/core' })).toThrow(
      'CLEARINGHOUSE_URL must be an https: URL in production',
    );
  });

  it.each(['authorizeUrl', 'tokenUrl', 'fhirBaseUrl'])(
    'stops start-up naming EMR_VENDORS …%s when it is http',
    (field) => {
      const vendors = JSON.parse(complete.EMR_VENDORS);
      vendors['smart-backend'][field] = 'http://ehr.example/x';
      expect(() => parseConfig({ ...production, ...complete, EMR_VENDORS: JSON.stringify(vendors) })).toThrow(
        `EMR_VENDORS["smart-backend"].${field} must be an https: URL in production`,
      );
    },
  );

  it('keeps http in sandbox, for the local fakes', () => {
    const http = Object.fromEntries(Object.entries(complete).map(([k, v]) => [k, v.replaceAll('https://', 'http://')]));
    const config = parseConfig(http);
    expect(config.mode).toBe('sandbox');
    expect(config.clearinghouse?.url).toBe('http://ch.example/core');
    expect(config.emrVendors['smart-backend']?.tokenUrl).toBe('http://ehr.example/token');
  });
});
