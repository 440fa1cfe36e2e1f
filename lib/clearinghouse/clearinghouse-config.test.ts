// The CLEARINGHOUSE_* group of lib/config.ts: all or nothing, a contact phone required, malformed values fatal.
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../config';

const GROUP = {
  CLEARINGHOUSE_URL: 'https://core.clearinghouse.example/claims',
  CLEARINGHOUSE_USERNAME: 'user',
  CLEARINGHOUSE_PASSWORD: 'secret',
  CLEARINGHOUSE_SENDER_ID: 'CLINIC01',
  CLEARINGHOUSE_RECEIVER_ID: 'CH01',
};

describe('CLEARINGHOUSE_* configuration', () => {
  it('switches the live clearinghouse on when the group and the contact phone are set', () => {
    const config = parseConfig({ ...GROUP, CLEARINGHOUSE_CONTACT_PHONE: '5185550100' });
    expect(config.clearinghouse).toEqual({
      url: GROUP.CLEARINGHOUSE_URL,
      username: 'user',
      password: 'secret',
      senderId: 'CLINIC01',
      receiverId: 'CH01',
      receiverName: 'CH01',
      contactPhone: '5185550100',
    });
    expect(config.warnings).toEqual([]);
  });

  it.each([
    ['without the contact phone', { ...GROUP }, 'CLEARINGHOUSE_CONTACT_PHONE'],
    ['with part of the group', { CLEARINGHOUSE_URL: GROUP.CLEARINGHOUSE_URL }, 'CLEARINGHOUSE_PASSWORD'],
  ])('stays off %s, with one warning naming what is missing (never fatal)', (_label, env, missing) => {
    const config = parseConfig(env);
    expect(config.clearinghouse).toBeUndefined();
    expect(config.warnings).toEqual([expect.stringContaining(missing)]);
  });

  it('stops start-up on a malformed URL or phone', () => {
    expect(() =>
      parseConfig({ ...GROUP, CLEARINGHOUSE_URL: 'not a url', CLEARINGHOUSE_CONTACT_PHONE: '5185550100' }),
    ).toThrow(ConfigError);
    expect(() => parseConfig({ ...GROUP, CLEARINGHOUSE_CONTACT_PHONE: '555-0100' })).toThrow(ConfigError);
  });
});
