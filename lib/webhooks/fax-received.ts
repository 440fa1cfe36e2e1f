// fax.received: the fax provider delivered an inbound fax for the event's clinic. Stores the Fax record (the
// document stays at the provider's documentUrl; we never fetch it here). Keyed by faxId, so the same fax
// under a new delivery id is recorded once.
import { z } from 'zod';
import { applied, defineEffect, recorded, rejected } from './event-effect';

export const FaxReceivedData = z.object({
  faxId: z.string().min(1).max(200),
  from: z.string().min(1).max(100),
  pages: z.number().int().min(1).max(10_000),
  receivedAt: z.iso.datetime({ offset: true, message: 'receivedAt must be an ISO-8601 timestamp' }),
  documentUrl: z.url({ protocol: /^https?$/, message: 'documentUrl must be an http(s) URL' }).max(2000),
});

export const faxReceived = defineEffect({
  receiver: 'fax',
  data: FaxReceivedData,
  async apply(tx, { clinicId, data }) {
    const clinic = await tx.clinic.findUnique({ where: { id: clinicId }, select: { id: true } });
    if (!clinic) return rejected('unknown clinic');
    const existing = await tx.fax.findUnique({ where: { id: data.faxId }, select: { clinicId: true } });
    if (existing)
      return existing.clinicId === clinicId
        ? recorded('fax already stored')
        : rejected('fax belongs to another clinic');
    const { count } = await tx.fax.createMany({
      data: [
        {
          id: data.faxId,
          clinicId,
          sender: data.from,
          pages: data.pages,
          receivedAt: new Date(data.receivedAt),
          documentUrl: data.documentUrl,
        },
      ],
      skipDuplicates: true,
    });
    return count === 1 ? applied() : recorded('fax already stored');
  },
});
