// The CLEARINGHOUSE_* group of lib/config.ts: DECISIONS' five all or nothing, the contact phone optional, malformed
// values fatal.
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

  it("switches it on with DECISIONS' five variables alone: the 837P's contact is then the submitting user's email", () => {
    const config = parseConfig({ ...GROUP });
    expect(config.clearinghouse).toMatchObject({ url: GROUP.CLEARINGHOUSE_URL, senderId: 'CLINIC01' });
    expect(config.clearinghouse?.contactPhone).toBeUndefined();
    expect(config.warnings).toEqual([]);
  });

  it('stays off with part of the group, with one warning naming what is missing (never fatal)', () => {
    const config = parseConfig({ CLEARINGHOUSE_URL: GROUP.CLEARINGHOUSE_URL });
    expect(config.clearinghouse).toBeUndefined();
    expect(config.warnings).toEqual([expect.stringContaining('CLEARINGHOUSE_PASSWORD')]);
  });

  it('stops start-up on a malformed URL or phone', () => {
    expect(() =>
      parseConfig({ ...GROUP, CLEARINGHOUSE_URL: 'not a url', CLEARINGHOUSE_CONTACT_PHONE: '5185550100' }),
    ).toThrow(ConfigError);
    expect(() => parseConfig({ ...GROUP, CLEARINGHOUSE_CONTACT_PHONE: '555-0100' })).toThrow(ConfigError);
  });
});
