import { describe, expect, it } from 'vitest';
import { build276, type Build276Input } from '../../x12/build-276';
import { read277 } from '../../x12/read-277';
import { X12ReadError } from '../../x12/x12-read-error';
import { answerStatus, type KnownClaimState } from './answer-status';

const request: Build276Input = {
  interchangeControlNumber: 501,
  groupControlNumber: 501,
  transactionControlNumber: '0001',
  senderId: 'CLINICSUBMIT',
  receiverId: 'SANDBOXCH',
  usageIndicator: 'T',
  createdAt: new Date('2025-04-01T09:30:00Z'),
  payer: { id: '60054', name: 'DEMO HEALTH PLAN' },
  receiver: { id: 'CLINICSUBMIT', name: 'NORTHSIDE CLINIC' },
  provider: { npi: '1234567893', name: 'NORTHSIDE CLINIC' },
  subscriber: { memberId: 'W123456789', lastName: 'DOE', firstName: 'JANE', birthDate: '1980-01-15', sex: 'F' },
  claim: {
    claimId: 'clm_0a1b2c3d4e5f6071',
    totalChargeCents: 21005,
    serviceDates: { from: '2025-03-03', to: '2025-03-04' },
  },
};
const x12 = build276(request);
const now = new Date('2025-04-01T09:31:00Z');

function statusOf(claim: KnownClaimState | null) {
  return read277(answerStatus({ x12, now, controlNumber: 9001, claim })).claims[0]!;
}

describe('answerStatus', () => {
  it.each([
    ['submitted', 'A1', '19', true],
    ['accepted', 'P1', '20', true],
    ['appealed', 'P1', '20', true],
    ['rejected', 'A7', '33', false],
    ['paid', 'F1', '65', true],
    ['partially_paid', 'F1', '65', true],
    ['closed', 'F1', '65', true],
    ['denied', 'F2', '1', true],
    ['draft', 'D0', '35', false],
  ])('answers a %s claim with %s:%s', (status, category, code, accepted) => {
    const claim = statusOf({ status, chargeCents: 21005 });
    expect([claim.claimId, claim.statusCategory, claim.statusCode, claim.accepted, claim.chargeCents]).toEqual([
      request.claim.claimId,
      category,
      code,
      accepted,
      21005,
    ]);
  });

  it('answers a claim it never saw with D0:35, dated today', () => {
    const claim = statusOf(null);
    expect([claim.statusCategory, claim.statusCode, claim.statusDate, claim.paidCents]).toEqual([
      'D0',
      '35',
      '2025-04-01',
      null,
    ]);
  });

  it('sends the amount paid, the payer claim number and the status date it is given', () => {
    const claim = statusOf({
      status: 'partially_paid',
      chargeCents: 21005,
      paidCents: 9000,
      payerClaimId: 'SBXPCN0123456789AB',
      statusDate: '2025-03-20',
    });
    expect([claim.paidCents, claim.payerClaimId, claim.statusDate]).toEqual([9000, 'SBXPCN0123456789AB', '2025-03-20']);
  });

  it('answers from the payer to the asker, echoing the 276 trace', () => {
    const text = answerStatus({ x12, now, controlNumber: 9001, claim: { status: 'accepted', chargeCents: 21005 } });
    expect(text.startsWith('ISA*00*          *00*          *ZZ*SANDBOXCH      *ZZ*CLINICSUBMIT   *250401*0931*')).toBe(
      true,
    );
    expect(text).toContain(`TRN*2*${request.claim.claimId}~`);
  });

  it('refuses text that is not a 276 with an X12ReadError', () => {
    expect(() => answerStatus({ x12: 'not x12', now, controlNumber: 1, claim: null })).toThrow(X12ReadError);
  });
});
