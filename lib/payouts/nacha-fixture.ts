// A small NACHA input for tests and the golden file: two clinics, one of them still proving its account (prenote).
import type { NachaFileInput } from './nacha-file';

export const exampleNachaInput = (): NachaFileInput => ({
  immediateDestination: '021000021',
  destinationName: 'JPMORGAN CHASE',
  immediateOrigin: '1123456789',
  originName: 'SVC REVENUE PLATFORM',
  companyName: 'SVC PAYOUTS',
  companyId: '1123456789',
  odfiRoutingNumber: '021000021',
  companyEntryDescription: 'PAYOUT',
  createdAt: { date: '2026-11-25', time: '14:05' },
  effectiveDate: '2026-11-27',
  fileIdModifier: 'A',
  batchNumber: 1,
  firstTraceSequence: 1,
  entries: [
    {
      accountType: 'checking',
      prenote: false,
      routingNumber: '011000015',
      accountNumber: '123456789',
      amountCents: 9_350_00,
      individualId: 'clinic_north',
      receiverName: 'North Clinic',
      addenda: 'SETTLEMENT INSTRUCTION ins_001',
    },
    {
      accountType: 'savings',
      prenote: true,
      routingNumber: '026009593',
      accountNumber: '00098765',
      amountCents: 0,
      individualId: 'clinic_south',
      receiverName: 'South Clinic',
      addenda: 'PRENOTE PAYOUT ACCOUNT',
    },
  ],
});
