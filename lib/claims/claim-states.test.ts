import { describe, expect, it } from 'vitest';
import { CLAIM_STATUSES, CLAIM_TRANSITIONS, canTransition, describeStatus, isClaimStatus } from './claim-states';

describe('the claim state table', () => {
  it('names only known states, and closed is terminal', () => {
    for (const [from, targets] of Object.entries(CLAIM_TRANSITIONS)) {
      expect(isClaimStatus(from)).toBe(true);
      for (const to of targets) expect(isClaimStatus(to)).toBe(true);
    }
    expect(Object.keys(CLAIM_TRANSITIONS).sort()).toEqual([...CLAIM_STATUSES].sort());
    expect(CLAIM_TRANSITIONS.closed).toEqual([]);
  });

  it.each([
    ['draft', 'sending', true],
    ['draft', 'submitted', false], // recorded as sending first (the outbox)
    ['sending', 'submitted', true],
    ['sending', 'draft', true], // a 999 R, or a send never received
    ['sending', 'accepted', false],
    ['draft', 'accepted', false], // never skipped: submitted first
    ['draft', 'paid', false],
    ['submitted', 'accepted', true],
    ['submitted', 'rejected', true],
    ['rejected', 'draft', true], // fixed and sent again
    ['rejected', 'submitted', false],
    ['accepted', 'paid', true],
    ['accepted', 'appealed', false], // nothing to appeal yet
    ['denied', 'appealed', true],
    ['partially_paid', 'appealed', true],
    ['paid', 'appealed', false],
    ['appealed', 'paid', true],
    ['closed', 'draft', false],
  ] as const)('%s → %s is %s', (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed);
  });

  it('says a state in words', () => {
    expect(describeStatus('partially_paid')).toBe('partially paid');
    expect(isClaimStatus('lost')).toBe(false);
  });
});
