// era.received on POST /api/webhooks/era: a clearinghouse or payer delivers an 835 interchange, `data: { x12 }`,
// for the clinic its signed envelope names (DECISIONS "Money in"). Runs inside the delivery's transaction
// (receive-event.ts), so the delivery row and every 835 of the interchange commit together or not at all: a refusal
// (422: unreadable, empty, unbalanced, or with no CLP naming a transmitted claim of the clinic) records nothing, not even the
// delivery, and a corrected re-delivery can still post. An 835 already posted under another delivery (same payer
// id and TRN02) is recorded and changes nothing; a different 835 reusing them is refused (422) as above. An interchange of more than 500 CLPs is checked here and posted by
// a job queued in the same transaction (era-post-job.ts), with the record of its progress the remittance screen
// shows: the receiver answers 202.
import { z } from 'zod';
import { applied, defineEffect, recorded, rejected } from '../webhooks/event-effect';
import { MAX_INTERCHANGE_LENGTH } from '../x12/read-interchange';
import { enqueueEraPosting, ERA_QUEUED_REASON, LARGE_ERA_CLAIMS } from './era-post-job';
import { checkInterchange } from './ingest-remittance';
import { postRemittance } from './post-remittance';

export const EraReceivedData = z.object({
  x12: z.string().min(1, 'x12 must hold the 835 interchange').max(MAX_INTERCHANGE_LENGTH, 'x12 is larger than 1 MiB'),
});

export const eraReceived = defineEffect({
  receiver: 'era',
  data: EraReceivedData,
  async apply(tx, event) {
    const { clinicId, data, correlationId, now } = event;
    const clinic = await tx.clinic.findUnique({ where: { id: clinicId }, select: { id: true } });
    if (!clinic) return rejected('unknown clinic');
    const checked = await checkInterchange(tx, { clinicId, x12: data.x12 });
    const claims = checked.remittances.reduce((total, remittance) => total + remittance.claimCount, 0);
    if (claims > LARGE_ERA_CLAIMS) {
      await enqueueEraPosting(tx, {
        clinicId,
        x12: data.x12,
        correlationId,
        deliveryId: event.deliveryId,
        claimsTotal: claims,
        now,
      });
      return recorded(ERA_QUEUED_REASON);
    }
    let posted = 0;
    for (const remittance of checked.remittances) {
      const result = await postRemittance(tx, {
        clinicId,
        x12: data.x12,
        source: 'webhook',
        correlationId,
        remittance,
        now,
      });
      if (!result.duplicate) posted++;
    }
    return posted > 0 ? applied() : recorded('remittance already posted');
  },
});
