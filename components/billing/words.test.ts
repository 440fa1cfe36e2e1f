import { describe, expect, it } from 'vitest';
import { timelineWords } from './words';

describe("a claim timeline event's words", () => {
  it('calls a posted CLP a payment, or a denial when it denied the claim', () => {
    expect(timelineWords('payment', 'paid')).toBe('Payment posted from a remittance (835)');
    expect(timelineWords('payment', 'partially_paid')).toBe('Payment posted from a remittance (835)');
    expect(timelineWords('payment', 'denied')).toBe('Denied by the payer in a remittance (835)');
  });

  it('names an event it has no words for by its kind', () => {
    expect(timelineWords('277CA')).toBe('Payer claim acknowledgement (277CA)');
    expect(timelineWords('some_new_kind')).toBe('some new kind');
  });
});
