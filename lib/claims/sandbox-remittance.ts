// The sandbox payer's remittance: a claim the sandbox clearinghouse accepted is later paid or denied by a real 835
// that arrives through the same ingest as any other (DECISIONS "Claims out"; lib/remittances/ingest-remittance.ts,
// source "sandbox"). Submit queues a job for it (pg-boss, queue "claims.sandbox-remittance") in its own
// transaction, a few seconds out; the job answers the stored 837P again with the sandbox's pure answer-claim
// (deterministic: the same 835 each time, so a retried job posts once) and ingests its remittance. Sandbox only:
// nothing queues it in production. The ingest keeps the 835 on the claim's transmissions, as for every 835.
import type { Clock } from '../clock';
import type { Db, Prisma } from '../db';
import type { JobHandler } from '../background/job-handler';
import { sendJob } from '../background/send-job';
import { ingestRemittance } from '../remittances/ingest-remittance';
import { clinicToday } from '../time/clinic-day';
import { answerClaim } from './sandbox-clearinghouse/answer-claim';

export const SANDBOX_REMITTANCE_QUEUE = 'claims.sandbox-remittance';
/** How long after acceptance the payer "pays": long enough to see the claim accepted first. */
export const SANDBOX_REMITTANCE_DELAY_MS = 3_000;
const MAX_ATTEMPTS = 5;

type Payload = { clinicId: string; claimId: string };
type JobData = Payload & { correlationId: string };

/** Queued once per claim (keyed by its id), a few seconds out, in the caller's transaction. */
export async function enqueueSandboxRemittance(
  tx: Prisma.TransactionClient,
  input: Payload & { correlationId: string; now: Date },
): Promise<void> {
  const data: JobData = { clinicId: input.clinicId, claimId: input.claimId, correlationId: input.correlationId };
  await sendJob(tx, SANDBOX_REMITTANCE_QUEUE, data, {
    key: input.claimId,
    startAfter: new Date(input.now.getTime() + SANDBOX_REMITTANCE_DELAY_MS),
  });
}

export function sandboxRemittanceHandler(deps: { db: Db; clock: Clock }): JobHandler<JobData> {
  return {
    queue: SANDBOX_REMITTANCE_QUEUE,
    options: { retryLimit: MAX_ATTEMPTS - 1, retryDelay: 2, retryBackoff: true, expireInSeconds: 120 },
    pollingIntervalSeconds: 1,
    async run(job) {
      const { clinicId, claimId, correlationId } = job.data;
      await sendSandboxRemittance(deps, { clinicId, claimId, correlationId });
    },
  };
}

/** Ingests the sandbox payer's 835 for an accepted claim; nothing for a claim no longer accepted. */
export async function sendSandboxRemittance(
  deps: { db: Db; clock: Clock },
  input: Payload & { correlationId: string },
): Promise<void> {
  const { db } = deps;
  const claim = await db.claim.findFirst({
    where: { id: input.claimId, clinicId: input.clinicId },
    select: { status: true },
  });
  if (claim?.status !== 'accepted') return;
  const [sent, clinic] = await Promise.all([
    db.claimTransmission.findFirst({
      where: { claimId: input.claimId, clinicId: input.clinicId, direction: 'out', kind: '837P' },
      orderBy: { at: 'desc' },
      select: { x12: true, controlNumber: true },
    }),
    db.clinic.findUniqueOrThrow({ where: { id: input.clinicId }, select: { timeZone: true } }),
  ]);
  if (!sent) return;
  const now = deps.clock();
  const controlNumber = Number(sent.controlNumber) || 1;
  const answer = answerClaim({
    x12: sent.x12,
    now,
    controlNumbers: { ack999: controlNumber, ack277ca: controlNumber },
  });
  const remittance = answer.remittance835?.(clinicToday(now, clinic.timeZone));
  if (!remittance) return;
  await ingestRemittance(deps, {
    clinicId: input.clinicId,
    x12: remittance,
    source: 'sandbox',
    correlationId: input.correlationId,
  });
}
