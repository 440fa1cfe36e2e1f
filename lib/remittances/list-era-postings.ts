// The clinic's ERAs posted in the background (era-post-job.ts), as the remittance screen follows them: how far each
// has got, and why an attempt failed. Only what a posting record holds; the remittances themselves are
// GET /api/remittances's.
import { z } from 'zod';
import type { Db } from '../db';

const MAX_POSTINGS = 100;

export const ERA_POSTING_STATES = ['queued', 'posting', 'posted', 'failed'] as const;

export const EraPostingView = z.object({
  /** The job's id too (GET /api/jobs). */
  id: z.string(),
  /** failed: the last attempt failed; it is tried again while willRetry. */
  state: z.enum(ERA_POSTING_STATES),
  /** CLPs in the interchange. */
  claimsTotal: z.int(),
  /** CLPs of the interchange posted so far by the current attempt (claimsTotal once posted). */
  claimsPosted: z.int(),
  /** Attempts started so far. */
  attempts: z.int(),
  willRetry: z.boolean(),
  /** Why the last attempt failed, in words; null unless failed. */
  failureReason: z.string().nullable(),
  /** The posted 835s, in file order; empty until posted. */
  remittanceIds: z.array(z.string()),
  queuedAt: z.iso.datetime({ offset: true }),
  finishedAt: z.iso.datetime({ offset: true }).nullable(),
});
export const EraPostingList = z.object({ postings: z.array(EraPostingView) });
export type EraPostingList = z.infer<typeof EraPostingList>;

/** Newest first, at most 100, the clinic's own only. */
export async function listEraPostings(deps: { db: Db }, input: { clinicId: string }): Promise<EraPostingList> {
  const rows = await deps.db.eraPosting.findMany({
    where: { clinicId: input.clinicId },
    orderBy: [{ queuedAt: 'desc' }, { id: 'desc' }],
    take: MAX_POSTINGS,
  });
  return {
    postings: rows.map((row) => ({
      id: row.id,
      state: z.enum(ERA_POSTING_STATES).parse(row.state),
      claimsTotal: row.claimsTotal,
      claimsPosted: row.claimsPosted,
      attempts: row.attempts,
      willRetry: row.willRetry,
      failureReason: row.failureReason,
      remittanceIds: row.remittanceIds,
      queuedAt: row.queuedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
    })),
  };
}
