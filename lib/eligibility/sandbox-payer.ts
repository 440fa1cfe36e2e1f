// The sandbox payer: answers each 270 with a real 271 chosen by the member id prefix (ELIGIBILITY.md, sandbox
// table). It never runs in production; choosing it over the live transport is lib/deps.ts's job.
import type { Clock } from '@/lib/clock';
import { AppError } from '@/lib/errors';
import { build271, type Benefit271, type Build271Input, type InquiryTrace } from '@/lib/x12/build-271';
import { readInterchange, type Segment } from '@/lib/x12/read-interchange';
import type { PayerTransport } from './payer-transport';

type Inquiry = {
  interchangeControlNumber: number;
  senderId: string;
  receiverId: string;
  payer: { id: string; name: string };
  provider: { npi: string; name: string };
  subscriber: { memberId: string; firstName: string; lastName: string; birthDate?: string };
  /** BHT03 of the 270. */
  submitterTransactionId: string;
  /** TRN02..TRN04 of the 270's TRN*1, echoed in the 271's TRN*2. */
  trace: InquiryTrace;
  serviceTypeCodes: string[];
  /** DTP*291, the date of service (the clinic's calendar day), when the 270 sends one. */
  dateOfService: Date | null;
};

export function sandboxPayer(clock: Clock): PayerTransport {
  return {
    mode: 'sandbox',
    async send(x12Request: string): Promise<string> {
      const inquiry = readInquiry(x12Request);
      // Coverage dates are told from the date of service, not from the UTC clock: on the evening of a clinic's last
      // day of the month west of UTC, the UTC month has already turned ("ended last month" would be today).
      const now = clock();
      return build271(answerFor(inquiry, now, inquiry.dateOfService ?? now));
    },
  };
}

function readInquiry(x12: string): Inquiry {
  let segments: Segment[];
  let isa: Segment;
  try {
    const interchange = readInterchange(x12);
    const transaction = interchange.groups.flatMap((g) => g.transactions).find((t) => t.id === '270');
    if (!transaction) throw new Error('no 270');
    segments = transaction.segments;
    isa = interchange.isa;
  } catch (cause) {
    throw new AppError('TRANSPORT_FAILED', 'The sandbox payer could not read the eligibility request', { cause });
  }
  const find = (id: string, qualifier: string) => segments.find((s) => s.id === id && s.elements[1] === qualifier);
  const payer = find('NM1', 'PR');
  const provider = find('NM1', '1P');
  const subscriber = find('NM1', 'IL');
  const at = (segment: Segment | undefined, position: number) => segment?.elements[position] ?? '';
  return {
    interchangeControlNumber: Number(at(isa, 13)) || 1,
    // The answer goes back the other way: the 270's receiver sends the 271.
    senderId: at(isa, 8).trim(),
    receiverId: at(isa, 6).trim(),
    payer: { id: at(payer, 9), name: at(payer, 3) || 'SANDBOX PAYER' },
    provider: { npi: at(provider, 9), name: at(provider, 3) || 'PROVIDER' },
    subscriber: {
      memberId: at(subscriber, 9),
      firstName: at(subscriber, 4),
      lastName: at(subscriber, 3),
      birthDate:
        at(
          segments.find((s) => s.id === 'DMG'),
          2,
        ) || undefined,
    },
    submitterTransactionId:
      at(
        segments.find((s) => s.id === 'BHT'),
        3,
      ) || '0',
    trace: readTrace(segments.find((s) => s.id === 'TRN' && s.elements[1] === '1')),
    serviceTypeCodes: segments.filter((s) => s.id === 'EQ' && at(s, 1) !== '').map((s) => at(s, 1)),
    dateOfService: readD8(at(find('DTP', '291'), 3)),
  };
}

/** CCYYMMDD as midnight UTC of that day, or null. */
function readD8(value: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
}

/** The 270's own trace (TRN01 1); a 270 without one still gets an answer, traced as "0". */
function readTrace(trn: Segment | undefined): InquiryTrace {
  const supplementalId = trn?.elements[4];
  return {
    referenceId: trn?.elements[2] || '0',
    originatorId: trn?.elements[3] || '0000000000',
    ...(supplementalId ? { supplementalId } : {}),
  };
}

const d8 = (date: Date) => date.toISOString().slice(0, 10).replaceAll('-', '');

/** EB elements from EB01 on, positions as in the TR3 (EB06 time period, EB07 amount, EB08 percent, EB11, EB12). */
function eb(values: Partial<Record<1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 11 | 12, string>>): string[] {
  const elements: string[] = [];
  for (let i = 1; i <= 12; i++) elements.push(values[i as keyof typeof values] ?? '');
  return elements;
}

function activePpo(networkMessage: string): Benefit271[] {
  const amount = (eb01: string, eb06: string, eb07: string) => ({
    eb: eb({ 1: eb01, 2: 'IND', 3: '30', 6: eb06, 7: eb07, 12: 'Y' }),
  });
  return [
    { eb: eb({ 1: '1', 2: 'IND', 3: '30', 4: 'PR', 5: 'DEMO PPO' }), messages: [networkMessage] },
    amount('C', '23', '1500'),
    amount('C', '24', '500'),
    amount('C', '29', '1000'),
    amount('G', '23', '6000'),
    amount('G', '24', '1500'),
    amount('G', '29', '4500'),
    { eb: eb({ 1: 'B', 2: 'IND', 3: '98', 6: '27', 7: '25', 12: 'Y' }), messages: ['PRIMARY CARE OFFICE VISIT'] },
    { eb: eb({ 1: 'B', 2: 'IND', 3: '98', 6: '27', 7: '50', 12: 'Y' }), messages: ['SPECIALIST OFFICE VISIT'] },
    { eb: eb({ 1: 'A', 2: 'IND', 3: '30', 8: '.2', 12: 'Y' }) },
  ];
}

/** `asOf`: the day the coverage dates are told from (the date of service). */
function answerFor(inquiry: Inquiry, now: Date, asOf: Date): Build271Input {
  const base: Build271Input = {
    interchangeControlNumber: inquiry.interchangeControlNumber,
    groupControlNumber: inquiry.interchangeControlNumber,
    transactionControlNumber: '0001',
    senderId: inquiry.senderId,
    receiverId: inquiry.receiverId,
    createdAt: now,
    payer: inquiry.payer,
    provider: inquiry.provider,
    subscriber: inquiry.subscriber,
    submitterTransactionId: inquiry.submitterTransactionId,
    inquiryTrace: inquiry.trace,
  };
  const memberId = inquiry.subscriber.memberId;
  const yearStart = new Date(Date.UTC(asOf.getUTCFullYear(), 0, 1));
  // REF*6P REF03 is the plan description (TR3 2100C REF), so an inactive answer still names its plan.
  const group = ['REF', '6P', 'DEMO-GRP-001', 'DEMO PPO'];

  if (memberId.startsWith('DEMO-DOWN')) return { ...base, payerRejection: { reasonCode: '42', followUpCode: 'R' } };
  if (memberId.startsWith('DEMO-NOTFOUND'))
    return { ...base, subscriberRejection: { reasonCode: '75', followUpCode: 'C' } };
  if (memberId.startsWith('DEMO-INACTIVE')) {
    // Coverage ran for a year and ended on the last day of last month.
    const lastMonthEnd = new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), 0));
    const start = new Date(Date.UTC(lastMonthEnd.getUTCFullYear() - 1, lastMonthEnd.getUTCMonth() + 1, 1));
    return {
      ...base,
      subscriberSegments: [group, ['DTP', '346', 'D8', d8(start)], ['DTP', '347', 'D8', d8(lastMonthEnd)]],
      benefits: [{ eb: eb({ 1: '6', 3: '30' }) }],
    };
  }
  const active: Build271Input = { ...base, subscriberSegments: [group, ['DTP', '346', 'D8', d8(yearStart)]] };
  if (memberId.startsWith('DEMO-OON')) return { ...active, benefits: activePpo('PROVIDER IS OUT OF NETWORK') };
  if (memberId.startsWith('DEMO-PRIORAUTH')) {
    const codes = inquiry.serviceTypeCodes.length > 0 ? inquiry.serviceTypeCodes : ['30'];
    const authRows = codes.map((code) => ({
      eb: eb({ 1: '1', 2: 'IND', 3: code, 11: 'Y', 12: 'Y' }),
      messages: ['PRIOR AUTHORIZATION REQUIRED'],
    }));
    return { ...active, benefits: [...activePpo('IN NETWORK'), ...authRows] };
  }
  return { ...active, benefits: activePpo('IN NETWORK') };
}
