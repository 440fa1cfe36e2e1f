// The sandbox's saved secrets never override the environment (issue 21 item 6): a variable set in the environment
// wins over .data/sandbox-secrets.json, only missing ones are taken from the file, and those are named for the log.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxEnv } from './sandbox-env';

describe('sandbox secrets at start', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-env-'));
    file = path.join(dir, '.data', 'sandbox-secrets.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('first start: generates every missing secret into the file, none that the environment sets', () => {
    const first = sandboxEnv({ CRON_SECRET: 'mine' }, file);
    expect(first.generated).toContain('WEBHOOK_SECRET_ERA');
    expect(first.generated).not.toContain('CRON_SECRET');
    expect(first.fromFile).toEqual([]);
    expect(first.values.CRON_SECRET).toBeUndefined();
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    expect(saved.CRON_SECRET).toBeUndefined();
    expect(first.values.WEBHOOK_SECRET_ERA).toBe(saved.WEBHOOK_SECRET_ERA);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a variable set after a first start wins over the saved one; only missing ones come from the file, named', () => {
    const first = sandboxEnv({}, file);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    expect(first.values.WEBHOOK_SECRET_ERA).toBe(saved.WEBHOOK_SECRET_ERA);

    const env = { WEBHOOK_SECRET_ERA: 'operator-era-secret', AUTH_SECRET: 'operator-auth-secret' };
    const second = sandboxEnv(env, file);
    expect(second.generated).toEqual([]);
    expect(second.values.WEBHOOK_SECRET_ERA).toBeUndefined();
    expect(second.values.AUTH_SECRET).toBeUndefined();
    expect({ ...env, ...second.values }).toMatchObject(env);
    expect(second.fromFile).not.toContain('WEBHOOK_SECRET_ERA');
    expect(second.fromFile).not.toContain('AUTH_SECRET');
    expect(second.fromFile).toEqual(expect.arrayContaining(['CRON_SECRET', 'SEAL_KEY', 'WEBHOOK_SECRET_PAYMENT']));
    expect(second.values.CRON_SECRET).toBe(saved.CRON_SECRET);
    // The file keeps what it had: unsetting the variable again falls back to the saved value.
    expect(sandboxEnv({}, file).values.WEBHOOK_SECRET_ERA).toBe(saved.WEBHOOK_SECRET_ERA);
  });

  it('the SMART key is a group: one of the three set in the environment keeps all three saved ones out', () => {
    sandboxEnv({}, file);
    const result = sandboxEnv({ SMART_CLIENT_ID: 'operator-client' }, file);
    expect(result.values.SMART_CLIENT_ID).toBeUndefined();
    expect(result.values.SMART_PRIVATE_KEY).toBeUndefined();
    expect(result.values.SMART_KEY_ID).toBeUndefined();
    expect(result.fromFile).not.toContain('SMART_PRIVATE_KEY');
  });

  it('defaults the relying party and the demo EHR only where the environment is silent', () => {
    const result = sandboxEnv({ PORT: '3999', WEBAUTHN_RP_NAME: 'Mine', EMR_VENDORS: '{}' }, file);
    expect(result.values).toMatchObject({ WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGIN: 'http://localhost:3999' });
    expect(result.values.WEBAUTHN_RP_NAME).toBeUndefined();
    expect(result.values.EMR_VENDORS).toBeUndefined();
  });
});
