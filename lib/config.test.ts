import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, resolveMode } from './config';

const key = Buffer.alloc(32, 1).toString('base64');

describe('parseConfig', () => {
  it('defaults to sandbox, port 3000, embedded PGlite in .data/pglite, every integration off', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      mode: 'sandbox', port: 3000, appUrl: 'http://localhost:3000',
      database: { kind: 'pglite', dataDir: '.data/pglite' }, webhookSecrets: {}, emrVendors: {}, halted: false,
    });
    expect(config.authSecret ?? config.sealKey ?? config.smart ?? config.partnerApi ?? config.eligibilityCore).toBeUndefined();
  });

  it('is production under NODE_ENV=production unless SVC_ENV says otherwise, and refuses other SVC_ENV values', () => {
    expect(resolveMode({ NODE_ENV: 'production' })).toBe('production');
    expect(resolveMode({ NODE_ENV: 'production', SVC_ENV: 'sandbox' })).toBe('sandbox');
    expect(resolveMode({})).toBe('sandbox');
    expect(() => resolveMode({ SVC_ENV: 'staging' })).toThrow(ConfigError);
  });

  it('refuses half a configuration group, naming the missing keys', () => {
    expect(() => parseConfig({ ELIGIBILITY_CORE_URL: 'https://core.example/x' })).toThrow(
      'ELIGIBILITY_CORE_USERNAME, ELIGIBILITY_CORE_PASSWORD, ELIGIBILITY_SENDER_ID, ELIGIBILITY_RECEIVER_ID must be set together with ELIGIBILITY_CORE_URL',
    );
    expect(() => parseConfig({ PARTNER_API_KEY: 'k' })).toThrow(ConfigError);
  });

  it.each([
    ['SEAL_KEY', { SEAL_KEY: Buffer.alloc(16).toString('base64') }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['APP_URL', { APP_URL: 'not a url' }],
    ['EMR_VENDORS', { EMR_VENDORS: '{not json' }],
    ['EMR_VENDORS', { EMR_VENDORS: JSON.stringify({ 'generic-fhir': { tokenUrl: 'ftp://x' } }) }],
    ['PORT', { PORT: '70000' }],
    ['SMART_PRIVATE_KEY', { SMART_CLIENT_ID: 'c', SMART_KEY_ID: 'k', SMART_PRIVATE_KEY: 'not a pem' }],
  ])('fails at start on a malformed %s', (_name, env) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
  });

  it('reads comma-listed webhook secrets for rotation and the halt switch', () => {
    const config = parseConfig({ WEBHOOK_SECRET_PAYMENT: ' new , old ,', SVC_HALT: '1', SEAL_KEY: key });
    expect(config.webhookSecrets).toEqual({ payment: ['new', 'old'] });
    expect(config.halted).toBe(true);
    expect(config.sealKey).toEqual(Buffer.alloc(32, 1));
  });
});
