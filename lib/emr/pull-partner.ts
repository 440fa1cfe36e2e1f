// POST /api/emr-sync/partner/pull: the partner API (FHIR R4 REST with the server-side PARTNER_API_KEY, DECISIONS
// "EMR and FHIR") for one day (`date`) or a range (`from` + `to`, at most 31 days), staged and committed in one
// transaction by the shared tail (run-pull.ts).
// Dates without a time cover whole UTC days.
import { z } from 'zod';
import type { Clock } from '../clock';
import { requirePartnerApi, type Config } from '../config';
import type { Db } from '../db';
import type { FhirStore } from '../fhir/fhir-store';
import { SYNC_RESOURCE_TYPES } from '../fhir/types';
import type { Egress } from '../outbound/egress';
import { clinicDayBounds } from '../time/clinic-day';
import { requirePartnerAccount } from './integration-binding';
import { pullPartnerResources } from './partner-client';
import { PullResult, runPull } from './run-pull';

export const MAX_RANGE_DAYS = 31;
const DAY_MS = 24 * 60 * 60 * 1000;

const DateOrInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  message: 'Must be an ISO-8601 date or instant with a zone',
});

export const PartnerPullBody = z
  .object({
    date: z.iso.date({ message: 'date must be YYYY-MM-DD' }).optional(),
    from: DateOrInstant.optional(),
    to: DateOrInstant.optional(),
  })
  .superRefine((body, ctx) => {
    const single = body.date !== undefined;
    const range = body.from !== undefined || body.to !== undefined;
    if (single === range) {
      ctx.addIssue({ code: 'custom', path: ['date'], message: 'Give either date, or from and to' });
      return;
    }
    if (range && (body.from === undefined || body.to === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [body.from === undefined ? 'from' : 'to'],
        message: 'from and to go together',
      });
      return;
    }
    // A bound that is not a date or instant has its own issue already; the range is measured only between good ones.
    if (![body.date, body.from, body.to].every((v) => v === undefined || DateOrInstant.safeParse(v).success)) return;
    const { from, to } = rangeOf(body);
    if (from > to) ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must not be after to' });
    else if (Date.parse(to) - Date.parse(from) > MAX_RANGE_DAYS * DAY_MS) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `The range may span at most ${MAX_RANGE_DAYS} days` });
    }
  });
export type PartnerPullBody = z.infer<typeof PartnerPullBody>;

export const PartnerPullResult = PullResult.extend({ range: z.object({ from: z.string(), to: z.string() }) });

/**
 * Inclusive instants: a date-only bound means the start (from) or the end (to) of that day at the clinic (its time
 * zone, like every day a screen shows; UTC when no zone is given, as for the size check, which a zone moves by hours
 * only).
 */
export function rangeOf(body: PartnerPullBody, timeZone = 'UTC'): { from: string; to: string } {
  const start = (value: string) =>
    (value.length === 10 ? clinicDayBounds(value, timeZone).from : new Date(value)).toISOString();
  const end = (value: string) =>
    value.length === 10
      ? new Date(clinicDayBounds(value, timeZone).to.getTime() - 1).toISOString()
      : new Date(value).toISOString();
  return body.date !== undefined
    ? { from: start(body.date), to: end(body.date) }
    : { from: start(body.from!), to: end(body.to!) };
}

export async function pullPartner(
  deps: { db: Db; clock: Clock; config: Config; fhirStore: FhirStore; egress: Egress },
  input: PartnerPullBody & { clinicId: string; clinicTimeZone: string; correlationId: string },
): Promise<z.infer<typeof PartnerPullResult>> {
  // The credential check first (501), then the operator's binding (403): both before any call or write.
  const partner = requirePartnerApi(deps.config);
  const accountId = requirePartnerAccount(deps.config, input.clinicId);
  const range = rangeOf(input, input.clinicTimeZone);
  const result = await runPull(
    deps,
    {
      clinicId: input.clinicId,
      connectionId: null,
      kind: 'partner-api',
      correlationId: input.correlationId,
      sourceBaseUrl: partner.url,
    },
    async (pull) => {
      pull.progress({ phase: 'searching' });
      const resources = await pullPartnerResources({
        baseUrl: partner.url,
        apiKey: partner.apiKey,
        accountId,
        egress: deps.egress,
        ...range,
      });
      // One day to 31 days of one account, read in full by the partner client, then staged like any pull.
      for (const type of SYNC_RESOURCE_TYPES) for (const resource of resources[type]) await pull.add(resource);
    },
  );
  return { ...result, range };
}
