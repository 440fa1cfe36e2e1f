// The dispatcher: sends due deliveries, one at a time per claim, from any number of instances. A delivery is
// claimed with a lease (FOR UPDATE SKIP LOCKED: two instances never take the same one) and only when it is the
// earliest open delivery of its endpoint and object, so events about one object reach an endpoint in the order
// they were recorded, across instances. An instance that dies mid-attempt leaves a lease that runs out; another
// then tries again (at least once: the receiver dedupes on X-Svc-Delivery / webhook-id).
// Each attempt: 2xx within 10 s is delivered; 410 disables the endpoint at once; anything else (status, timeout,
// refused address) is retried on the ruled schedule (retry-schedule.ts) until 3 days have passed, then the
// endpoint is disabled with its reason. Every attempt is logged with status, latency and a capped excerpt.
import type { Deps } from '../deps';
import { requireSealKey } from '../config';
import { isAppError } from '../errors';
import type { EgressFailure } from '../outbound/egress';
import { nextAttemptAt } from './retry-schedule';
import { deliveryHeaders } from './sign-delivery';
import { unsealSigningSecret } from './signing-secret';

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Longer than one attempt's whole budget, so a live attempt is never taken over. */
const LEASE_MS = 60_000;
const EXCERPT_CHARS = 500;
/** The response body is read up to this many bytes for the excerpt, then the connection is dropped. */
const EXCERPT_BYTES = 2048;

export type DispatchDeps = Pick<Deps, 'db' | 'clock' | 'egress' | 'config' | 'log'> & {
  /** A draw in [0, 1) for the jitter; tests pin it. */
  random?: () => number;
};

/** Sends what is due now, until nothing is (or `max` attempts were made). @returns the attempts made. */
export async function deliverDueEvents(deps: DispatchDeps, max = 50): Promise<number> {
  let made = 0;
  while (made < max) {
    const id = await claimNext(deps);
    if (!id) break;
    await attemptDelivery(deps, id);
    made += 1;
  }
  return made;
}

async function claimNext({ db, clock }: DispatchDeps): Promise<string | null> {
  const now = clock();
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE "OutboundDelivery" d SET "leaseUntil" = ${leaseUntil}
    WHERE d.id = (
      SELECT c.id FROM "OutboundDelivery" c
      JOIN "WebhookEndpoint" e ON e.id = c."endpointId" AND e.status = 'enabled'
      WHERE c.status IN ('pending', 'retrying') AND c."nextAttemptAt" <= ${now}
        AND (c."leaseUntil" IS NULL OR c."leaseUntil" < ${now})
        AND NOT EXISTS (
          SELECT 1 FROM "OutboundDelivery" p
          WHERE p."endpointId" = c."endpointId" AND p."objectId" = c."objectId" AND p.seq < c.seq
            AND p.status IN ('pending', 'retrying'))
      ORDER BY c.seq
      LIMIT 1
      FOR UPDATE OF c SKIP LOCKED)
    RETURNING d.id`;
  return rows[0]?.id ?? null;
}

type Outcome = { responseStatus: number | null; excerpt: string | null };

async function attemptDelivery(deps: DispatchDeps, id: string): Promise<void> {
  const { db, clock } = deps;
  const delivery = await db.outboundDelivery.findUniqueOrThrow({ where: { id } });
  const [event, endpoint] = await Promise.all([
    db.outboundEvent.findUniqueOrThrow({ where: { id: delivery.eventId } }),
    db.webhookEndpoint.findUniqueOrThrow({ where: { id: delivery.endpointId } }),
  ]);
  const started = clock();
  const secrets = readSecrets(deps, endpoint, started);
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    clinicId: event.clinicId,
    data: event.data,
    ...(event.errors !== null && { errors: event.errors }),
  });

  const t0 = performance.now();
  const outcome: Outcome = secrets
    ? await post(
        deps,
        endpoint.url,
        deliveryHeaders({
          body,
          secrets,
          eventId: event.id,
          deliveryId: delivery.id,
          correlationId: event.correlationId,
          timestamp: Math.floor(started.getTime() / 1000),
        }),
        body,
      )
    : { responseStatus: null, excerpt: 'The signing secret could not be read; nothing was sent' };
  const durationMs = Math.round(performance.now() - t0);
  const attempt = delivery.attempts + 1;
  const ok = outcome.responseStatus !== null && outcome.responseStatus >= 200 && outcome.responseStatus < 300;
  const gone = outcome.responseStatus === 410;
  // The 3 days run from the first attempt, not from the event: a payout's event carries the bank's posting time,
  // and a delivery may wait behind an earlier one for its object before its own first try.
  const firstAttemptAt =
    attempt === 1
      ? started
      : ((await db.outboundAttempt.findFirst({ where: { deliveryId: id, attempt: 1 }, select: { at: true } }))?.at ??
        started);
  const retryAt = ok || gone ? null : nextAttemptAt(attempt, firstAttemptAt, clock(), (deps.random ?? Math.random)());
  const status = ok ? 'delivered' : retryAt ? 'retrying' : 'failed';
  const disable = gone
    ? 'The endpoint answered 410 Gone'
    : status === 'failed'
      ? `Deliveries failed for 3 days (last: ${outcome.responseStatus ? `HTTP ${outcome.responseStatus}` : outcome.excerpt})`
      : null;

  await db.$transaction(async (tx) => {
    await tx.outboundAttempt.create({
      data: {
        deliveryId: id,
        attempt,
        at: started,
        responseStatus: outcome.responseStatus,
        durationMs,
        excerpt: outcome.excerpt,
      },
    });
    await tx.outboundDelivery.update({
      where: { id },
      data: {
        status,
        attempts: attempt,
        leaseUntil: null,
        lastResponseStatus: outcome.responseStatus,
        lastDurationMs: durationMs,
        ...(retryAt ? { nextAttemptAt: retryAt } : { finishedAt: clock() }),
      },
    });
    if (disable) {
      await tx.webhookEndpoint.update({
        where: { id: endpoint.id },
        data: { status: 'disabled', disabledReason: disable },
      });
    }
  });
  deps.log[ok ? 'debug' : 'warn'](
    {
      deliveryId: id,
      eventId: event.id,
      endpointId: endpoint.id,
      attempt,
      status,
      responseStatus: outcome.responseStatus,
      durationMs,
    },
    ok ? 'webhook delivered' : 'webhook delivery failed',
  );
}

/**
 * The endpoint's signing secrets (the previous one too while it is live), or null when they cannot be unsealed (the
 * seal key changed): an attempt that sends nothing, counted as a failure so the schedule still ends.
 */
function readSecrets(
  deps: DispatchDeps,
  endpoint: {
    id: string;
    secretSealed: string;
    previousSecretSealed: string | null;
    previousSecretExpiresAt: Date | null;
  },
  now: Date,
): string[] | null {
  try {
    const sealKey = requireSealKey(deps.config);
    const secrets = [unsealSigningSecret(endpoint.secretSealed, sealKey, endpoint.id)];
    if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now)
      secrets.push(unsealSigningSecret(endpoint.previousSecretSealed, sealKey, endpoint.id));
    return secrets;
  } catch (error) {
    deps.log.error({ endpointId: endpoint.id, err: String(error) }, 'webhook signing secret could not be unsealed');
    return null;
  }
}

/** One POST through the egress client (tenant rules); any failure becomes an outcome, never a throw. */
async function post(deps: DispatchDeps, url: string, headers: Record<string, string>, body: string): Promise<Outcome> {
  try {
    const res = await deps.egress.open({
      url,
      method: 'POST',
      headers,
      body,
      target: 'tenant',
      purpose: 'webhook',
      maxBodyBytes: Number.MAX_SAFE_INTEGER,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
    });
    const parts: Buffer[] = [];
    let read = 0;
    try {
      for await (const chunk of res.chunks) {
        parts.push(chunk);
        read += chunk.length;
        if (read >= EXCERPT_BYTES) break;
      }
    } catch {
      // The status arrived in time; a body cut short (timeout while reading) still counts by its status.
    } finally {
      res.cancel();
    }
    const text = Buffer.concat(parts).toString('utf8').slice(0, EXCERPT_CHARS);
    return { responseStatus: res.status, excerpt: text || null };
  } catch (error) {
    return { responseStatus: null, excerpt: describeFailure(error) };
  }
}

function describeFailure(error: unknown): string {
  const cause = isAppError(error) ? (error.options.cause as EgressFailure | undefined) : undefined;
  switch (cause?.reason) {
    case 'timeout':
      return `No answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`;
    case 'redirect':
      return `Redirected (HTTP ${cause.status}); redirects are not followed`;
    case 'scheme-refused':
    case 'address-refused':
      return 'Refused: the URL must be https and resolve to a public address';
    case 'resolve':
      return 'The host name did not resolve';
    default:
      return 'The connection failed';
  }
}
