'use client';
// The bills list: amount, paid, what is still owed, where the bill came from (a claim's patient responsibility
// or a visit), each payment, and the patient statement to download (GET /api/bills/{id}/statement, a PDF).
import Link from 'next/link';
import type { z } from 'zod';
import type { BillList } from '@/lib/bills/list-bills';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { useApiRead } from '@/components/billing/use-api-read';
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
  if (bills === null) return <p role="status">Loading…</p>;
  if (!bills.length) return <p className="card">No patient bills.</p>;

  return (
    <section className="card" aria-label="Patient bills">
      <table className="stack-table">
        <thead>
          <tr>
            <th scope="col">Bill</th>
            <th scope="col">Patient</th>
            <th scope="col">For</th>
            <th scope="col" className="billing-amount">
              Amount
            </th>
            <th scope="col" className="billing-amount">
              Paid
            </th>
            <th scope="col" className="billing-amount">
              Still owed
            </th>
            <th scope="col">Payments</th>
            <th scope="col">Statement</th>
          </tr>
        </thead>
        <tbody>
          {bills.map((bill) => (
            <tr key={bill.billId} data-testid={`bill-${bill.billId}`} data-claim={bill.claimId ?? ''}>
              <td data-label="Bill">
                {bill.billId}
                <div className="muted">
                  {bill.status === 'paid' ? 'Paid in full' : 'Open'} · {fmt.date(bill.createdAt)}
                </div>
              </td>
              <td data-label="Patient">{bill.patientName ?? bill.patientId}</td>
              <td data-label="For">
                {bill.claimId ? (
                  <>
                    Patient responsibility on{' '}
                    <Link href={`/claims/${encodeURIComponent(bill.claimId)}`}>claim {bill.claimId}</Link>
                  </>
                ) : (
                  'Visit'
                )}
              </td>
              <td data-label="Amount" className="billing-amount" data-testid="bill-amount">
                {formatDollars(bill.amountCents)}
              </td>
              <td data-label="Paid" className="billing-amount">
                {formatDollars(bill.paidCents)}
              </td>
              <td data-label="Still owed" className="billing-amount">
                {formatDollars(bill.amountCents - bill.paidCents)}
              </td>
              <td data-label="Payments">
                {bill.payments.length ? (
                  <ul style={{ margin: 0, paddingLeft: '1rem' }}>
                    {bill.payments.map((p) => (
                      <li key={p.paymentId}>
                        {formatDollars(p.amountCents)} · {PAYMENT_STATUS[p.status] ?? p.status} ·{' '}
                        {fmt.date(p.createdAt)}
                      </li>
                    ))}
                  </ul>
                ) : (
                  'None yet'
                )}
              </td>
              <td data-label="Statement">
                <a
                  href={`/api/bills/${encodeURIComponent(bill.billId)}/statement`}
                  download={`statement-${bill.billId}.pdf`}
                  data-testid="bill-statement"
                >
                  Download statement (PDF)<span className="visually-hidden"> for bill {bill.billId}</span>
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
