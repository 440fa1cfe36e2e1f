// The one-statement common case of payment.succeeded on a real PostgreSQL: it writes the whole delivery or
// nothing, including when a concurrent delivery of the same paymentId commits while it waits (a race the HTTP
// tests cannot time). The HTTP tests in test/api/webhooks.test.ts cover every outcome through the route.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPatient } from '@/test/support/factories';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import type { DeliveryRow } from './delivery-row';
import type { VerifiedEvent } from './event-effect';
import type { PaymentData } from './payment-data';
import { paymentSucceeded } from './payment-succeeded';

const t = setUpTwoClinicDb();
const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

async function newBill(amountCents: number) {
  const patient = await createPatient(t.db, t.north);
  const bill = await t.db.patientBill.create({
    data: { id: uid('bill'), clinicId: t.north.clinicId, patientId: patient.id, amountCents },
  });
  return bill.id;
}

function delivery(data: PaymentData): { row: DeliveryRow; event: VerifiedEvent<PaymentData> } {
  const now = new Date();
  const [eventId, deliveryId, correlationId] = [uid('evt'), uid('dlv'), randomUUID()];
  return {
    row: {
      id: uid('whd'),
      receiver: 'payment',
      deliveryId,
      eventType: 'payment.succeeded',
      clinicId: t.north.clinicId,
      correlationId,
      receivedAt: now,
      envelopeId: eventId,
    },
    event: {
      eventId,
      type: 'payment.succeeded',
      clinicId: t.north.clinicId,
      createdAt: now.toISOString(),
      data,
      deliveryId,
      correlationId,
      now,
    },
  };
}

const applyWithDelivery = ({ row, event }: ReturnType<typeof delivery>) =>
  paymentSucceeded.applyWithDelivery!(t.db, row, event);

describe('payment.succeeded in one statement', () => {
  it('writes the delivery row, the payment, the bill total and a balanced posting with the overpayment unapplied', async () => {
    const billId = await newBill(1_000);
    const data: PaymentData = { paymentId: uid('pay'), billId, amountCents: 1_500, currency: 'USD' };
    const sent = delivery(data);
    expect(await applyWithDelivery(sent)).toBe(true);
    expect(await t.db.webhookDelivery.findUnique({ where: { id: sent.row.id } })).toMatchObject({
      outcome: 'applied',
      envelopeId: sent.row.envelopeId,
      receivedAt: sent.row.receivedAt,
    });
    expect(await t.db.patientBill.findUnique({ where: { id: billId } })).toMatchObject({
      paidCents: 1_500,
      status: 'paid',
    });
    const [posting] = await t.db.ledgerTransaction.findMany({
      where: { reference: `payment:${data.paymentId}` },
      include: { entries: { orderBy: { id: 'asc' } } },
    });
    expect(posting).toMatchObject({
      kind: 'payment.succeeded',
      clinicId: t.north.clinicId,
      correlationId: sent.row.correlationId,
      createdAt: sent.row.receivedAt,
    });
    expect(posting!.entries.map((e) => [e.id, e.account, e.amountCents])).toEqual([
      [`${posting!.id}_1`, 'assets:cash', 1_500n],
      [`${posting!.id}_2`, 'assets:patient-receivable', -1_000n],
      [`${posting!.id}_3`, 'liabilities:unapplied-payments', -500n],
    ]);
  });

  it.each([
    ['a re-delivery', async (sent: ReturnType<typeof delivery>) => ({ ...sent, row: { ...sent.row, id: uid('whd') } })],
    ['a known paymentId under a new delivery', async (sent: ReturnType<typeof delivery>) => delivery(sent.event.data)],
  ])('writes nothing for %s', async (_label, again) => {
    const billId = await newBill(10_000);
    const sent = delivery({ paymentId: uid('pay'), billId, amountCents: 1_000, currency: 'USD' });
    expect(await applyWithDelivery(sent)).toBe(true);
    const repeated = await again(sent);
    expect(await applyWithDelivery(repeated)).toBe(false);
    expect(await t.db.webhookDelivery.count({ where: { id: repeated.row.id } })).toBe(0);
    expect(await t.db.patientBill.findUnique({ where: { id: billId } })).toMatchObject({ paidCents: 1_000 });
  });

  it('writes nothing for a bill it cannot hold', async () => {
    const billId = await newBill(10_000);
    await t.db.patientBill.update({ where: { id: billId }, data: { paidCents: 2_147_483_000 } });
    const sent = delivery({ paymentId: uid('pay'), billId, amountCents: 1_000, currency: 'USD' });
    expect(await applyWithDelivery(sent)).toBe(false);
    expect(await t.db.webhookDelivery.count({ where: { id: sent.row.id } })).toBe(0);
    expect(await t.db.payment.count({ where: { id: sent.event.data.paymentId } })).toBe(0);
  });

  it('writes nothing when a concurrent delivery of the same paymentId commits first', async () => {
    const billId = await newBill(10_000);
    const paymentId = uid('pay');
    const sent = delivery({ paymentId, billId, amountCents: 1_000, currency: 'USD' });
    let racing: Promise<boolean> | undefined;
    await t.db.$transaction(async (tx) => {
      // Uncommitted, so invisible to the statement, which then waits on the Payment key until this commits.
      await tx.payment.create({
        data: {
          id: paymentId,
          clinicId: t.north.clinicId,
          billId,
          amountCents: 1_000n,
          currency: 'USD',
          status: 'succeeded',
        },
      });
      racing = applyWithDelivery(sent);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect(await racing).toBe(false);
    expect(await t.db.webhookDelivery.count({ where: { id: sent.row.id } })).toBe(0);
    expect(await t.db.patientBill.findUnique({ where: { id: billId } })).toMatchObject({ paidCents: 0 });
    expect(await t.db.ledgerTransaction.count({ where: { reference: `payment:${paymentId}` } })).toBe(0);
  });
});
