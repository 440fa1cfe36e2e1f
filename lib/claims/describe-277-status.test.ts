import { describe, expect, it } from 'vitest';
import { describe277Status } from './describe-277-status';

const status = (over: Partial<Parameters<typeof describe277Status>[0]>) => ({
  claimId: 'clm_1',
  payerClaimId: null,
  statusCategory: 'A7',
  statusCode: '33',
  entityCode: 'IL' as string | null,
  message: null as string | null,
  ...over,
});

describe('describe277Status', () => {
  it('says the sandbox rejection in words first, the codes last', () => {
    expect(describe277Status(status({}) as never)).toBe(
      'Rejected for invalid information: Subscriber and subscriber id not found (the subscriber) [STC A7:33:IL]',
    );
  });

  it("adds the payer's message and keeps unknown codes as codes", () => {
    expect(
      describe277Status(status({ statusCategory: 'A2', statusCode: '20', entityCode: null, message: 'OK' }) as never),
    ).toBe("Acceptance into adjudication system: Accepted for processing · payer's message: OK [STC A2:20]");
    expect(describe277Status(status({ statusCategory: 'Z9', statusCode: '9999', entityCode: null }) as never)).toBe(
      'STC Z9:9999',
    );
  });
});
