import { describe, expect, it } from 'vitest';
import {
  BACKUP_CODE_COUNT,
  FACTOR_LIMIT,
  SIGN_IN_ADDRESS_LIMIT,
  SIGN_IN_INPUT_LIMITS,
  SIGN_IN_LOCK,
  STEP_UP_TTL_SECONDS,
} from './rate-limit-policy';

// Pins the thresholds DECISIONS.md fixes, so a change to them is a deliberate, reviewed edit here too.
describe('rate-limit policy', () => {
  it('matches DECISIONS.md', () => {
    expect(SIGN_IN_LOCK).toEqual({ failures: 5, lockSeconds: 900 });
    expect(FACTOR_LIMIT).toEqual({ failures: 5, windowSeconds: 900 });
    expect(STEP_UP_TTL_SECONDS).toBe(300);
    expect(BACKUP_CODE_COUNT).toBe(10);
  });

  it('pins the sign-in address throttle and form limits this project chose (docs/decisions.md)', () => {
    expect(SIGN_IN_ADDRESS_LIMIT).toEqual({ failures: 30, windowSeconds: 900 });
    expect(SIGN_IN_INPUT_LIMITS).toEqual({ bodyBytes: 8192, emailChars: 320, passwordChars: 1024, mfaCodeChars: 64 });
  });
});
