// POST /cds-services/{id}/feedback (CDS Hooks 2.0 "Feedback"): what the clinician did with each card, stored for
// the EHR's bound clinic after the same JWT checks as a hook call; and the per-service counts the admin screen
// shows. Feedback names cards by uuid only: it carries no PHI.
import { z } from 'zod';
import type { Db, Prisma } from '../db';
import { AppError } from '../errors';
import { CdsFeedbackBody } from './cds-request';
import { cdsServiceUrl, CDS_SERVICE_IDS } from './cds-services';
import { findBoundClinic, requireCdsService, type CdsDeps } from './invoke-cds-service';
import { requireCdsClients, verifyCdsJwt } from './verify-cds-jwt';

export const CdsFeedbackReceipt = z.object({ stored: z.int() });

export async function recordCdsFeedback(
  deps: Omit<CdsDeps, 'payer' | 'fhirStore'>,
  /** `readBody`: the request's JSON body, read only once the JWT has passed. */
  call: { serviceId: string; bearer: string | null; readBody: () => Promise<unknown> },
): Promise<z.infer<typeof CdsFeedbackReceipt>> {
  const serviceId = requireCdsService(call.serviceId);
  requireCdsClients(deps.config);
  const serviceUrl = cdsServiceUrl(deps.config.appUrl, serviceId);
  // The specification leaves the feedback call's `aud` to the EHR: the service's URL or the feedback URL itself.
  const caller = await verifyCdsJwt(deps, call.bearer, [serviceUrl, `${serviceUrl}/feedback`]);
  const parsed = CdsFeedbackBody.safeParse(await call.readBody());
  if (!parsed.success) {
    throw new AppError('VALIDATION_FAILED', 'The feedback is malformed', {
      issues: parsed.error.issues.map((i) => ({ path: ['body', ...i.path].join('.'), message: i.message })),
    });
  }
  const items = 'feedback' in parsed.data ? parsed.data.feedback : [parsed.data];
  const clinic = await findBoundClinic(deps.db, caller);
  await deps.db.cdsFeedback.createMany({
    data: items.map((item) => ({
      clinicId: clinic.id,
      serviceId,
      issuer: caller.issuer,
      card: item.card,
      outcome: item.outcome,
      overrideReason: (item.overrideReason as Prisma.InputJsonObject | undefined) ?? undefined,
      outcomeAt: item.outcomeTimestamp ? new Date(item.outcomeTimestamp) : undefined,
    })),
  });
  return { stored: items.length };
}

export const CdsFeedbackCounts = z.object({
  services: z.array(
    z.object({ serviceId: z.string(), accepted: z.int(), overridden: z.int(), lastAt: z.string().nullable() }),
  ),
});
export type CdsFeedbackCounts = z.infer<typeof CdsFeedbackCounts>;

/** Accepted and overridden cards per service for one clinic (every service listed, zero when none). */
export async function countCdsFeedback(db: Db, clinicId: string): Promise<CdsFeedbackCounts> {
  const groups = await db.cdsFeedback.groupBy({
    by: ['serviceId', 'outcome'],
    where: { clinicId },
    _count: { _all: true },
    _max: { createdAt: true },
  });
  return {
    services: CDS_SERVICE_IDS.map((serviceId) => {
      const of = (outcome: string) => groups.find((g) => g.serviceId === serviceId && g.outcome === outcome);
      const last = [of('accepted')?._max.createdAt, of('overridden')?._max.createdAt]
        .filter((d): d is Date => !!d)
        .sort((a, b) => b.getTime() - a.getTime())[0];
      return {
        serviceId,
        accepted: of('accepted')?._count._all ?? 0,
        overridden: of('overridden')?._count._all ?? 0,
        lastAt: last ? last.toISOString() : null,
      };
    }),
  };
}
