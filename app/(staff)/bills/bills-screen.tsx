'use client';
// The bills list: amount, paid, what is still owed, where the bill came from (a claim's patient responsibility
// or a visit), each payment, and the patient statement to download (GET /api/bills/{id}/statement, a PDF).
import Link from 'next/link';
import type { z } from 'zod';
import type { BillList } from '@/lib/bills/list-bills';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { useApiRead } from '@/components/billing/use-api-read';
import { DataTable } from '@/components/data-table';
import { ErrorNote } from '@/components/error-note';

type Bill = z.infer<typeof BillList>['bills'][number];

const PAYMENT_STATUS: Record<string, string> = {
  succeeded: 'Paid',
  pending: 'Pending',
  failed: 'Failed',
  refunded: 'Refunded',
};

export function BillsScreen() {
  const fmt = useDateFormat();
  const { data, error } = useApiRead<{ bills: Bill[] }>('/api/bills');
  const bills = data?.bills ?? null;

  if (error) return <ErrorNote error={error} />;
  return (
    <section className="card" aria-label="Patient bills">
      <DataTable
        rows={bills}
        rowKey={(bill) => bill.billId}
        rowProps={(bill) => ({ 'data-testid': `bill-${bill.billId}`, 'data-claim': bill.claimId ?? '' })}
        empty="No patient bills."
        columns={[
          {
            header: 'Bill',
            cell: (bill) => (
              <>
                <span className="record-id">{bill.billId}</span>
                <div className="muted">
                  {bill.status === 'paid' ? 'Paid in full' : 'Open'} · {fmt.date(bill.createdAt)}
                </div>
              </>
            ),
          },
          { header: 'Patient', cell: (bill) => bill.patientName ?? bill.patientId },
          {
            header: 'For',
            cell: (bill) =>
              bill.claimId ? (
                <>
                  Patient responsibility on{' '}
                  <Link href={`/claims/${encodeURIComponent(bill.claimId)}`}>claim {bill.claimId}</Link>
                </>
              ) : (
                'Visit'
              ),
          },
          {
            header: 'Amount',
            amount: true,
            cell: (bill) => formatDollars(bill.amountCents),
            cellProps: () => ({ 'data-testid': 'bill-amount' }),
          },
          { header: 'Paid', amount: true, cell: (bill) => formatDollars(bill.paidCents) },
          { header: 'Still owed', amount: true, cell: (bill) => formatDollars(bill.amountCents - bill.paidCents) },
          {
            header: 'Payments',
            cell: (bill) =>
              bill.payments.length ? (
                <ul style={{ margin: 0, paddingLeft: '1rem' }}>
                  {bill.payments.map((p) => (
                    <li key={p.paymentId}>
                      {formatDollars(p.amountCents)} · {PAYMENT_STATUS[p.status] ?? p.status} · {fmt.date(p.createdAt)}
                    </li>
                  ))}
                </ul>
              ) : (
                'None yet'
              ),
          },
          {
            header: 'Statement',
            cell: (bill) => (
              <a
                href={`/api/bills/${encodeURIComponent(bill.billId)}/statement`}
                download={`statement-${bill.billId}.pdf`}
                data-testid="bill-statement"
              >
                Download statement (PDF)<span className="visually-hidden"> for bill {bill.billId}</span>
              </a>
            ),
          },
        ]}
      />
    </section>
  );
}
