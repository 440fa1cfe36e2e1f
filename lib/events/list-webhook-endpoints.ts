// GET /api/webhook-endpoints: the clinic's endpoints, newest first, and one of them (never a secret).
import { z } from 'zod';
import type { Deps } from '../deps';
import { findClinicEndpoint, toEndpointView, WebhookEndpointView } from './webhook-endpoint-view';

export const WebhookEndpointList = z.object({ endpoints: z.array(WebhookEndpointView) });

export async function listWebhookEndpoints(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { clinicId: string },
): Promise<z.infer<typeof WebhookEndpointList>> {
  const rows = await deps.db.webhookEndpoint.findMany({
    where: { clinicId: input.clinicId },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: 100,
  });
  const now = deps.clock();
  return { endpoints: rows.map((row) => toEndpointView(row, now)) };
}

/** GET /api/webhook-endpoints/{id}: one of the clinic's endpoints; another clinic's is 404. */
export async function getWebhookEndpoint(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { clinicId: string; id: string },
): Promise<WebhookEndpointView> {
  return toEndpointView(await findClinicEndpoint(deps.db, input), deps.clock());
}
