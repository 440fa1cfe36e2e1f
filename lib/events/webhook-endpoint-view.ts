// What the API shows of a webhook endpoint: never a secret (only creation and rotation answer one, once).
import { z } from 'zod';
import type { Db, Prisma } from '../db';
import { AppError } from '../errors';

export const WebhookEndpointView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  status: z.enum(['enabled', 'disabled']),
  /** Why the dispatcher disabled it (3 days of failed deliveries, or a 410), for the notice on the screen. */
  disabledReason: z.string().nullable(),
  /** While the previous secret still signs too (24 h after a rotation). */
  previousSecretExpiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookEndpointView = z.infer<typeof WebhookEndpointView>;

type EndpointRow = Prisma.WebhookEndpointGetPayload<object>;

export function toEndpointView(row: EndpointRow, now: Date): WebhookEndpointView {
  const rotating = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status === 'disabled' ? 'disabled' : 'enabled',
    disabledReason: row.disabledReason,
    previousSecretExpiresAt: rotating ? row.previousSecretExpiresAt!.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The clinic's endpoint; another clinic's, or none, is 404 (it is never confirmed to exist). */
export async function findClinicEndpoint(db: Db, input: { clinicId: string; id: string }): Promise<EndpointRow> {
  const row = await db.webhookEndpoint.findFirst({ where: { id: input.id, clinicId: input.clinicId } });
  if (!row) throw new AppError('NOT_FOUND', 'No such webhook endpoint');
  return row;
}
