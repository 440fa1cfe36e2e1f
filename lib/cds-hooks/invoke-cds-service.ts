// POST /cds-services/{id}'s domain: the order of the checks (service known; CDS_CLIENTS and, for
// coverage-requirements, the knowledge base configured; the EHR's JWT; then the body), the patient matched in the
// bound clinic only, the PHI read logged before any coverage is read, and the service's cards. A refused call
// reads no patient data and makes no call but the JWKS fetch.
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { recordPhiAccess } from '../audit/record-phi-access';
import type { Egress } from '../outbound/egress';
import type { FhirStore } from '../fhir/fhir-store';
import type { PayerTransport } from '../eligibility/payer-transport';
import { buildCard, type CdsResponse } from './cds-card';
import { CdsHookRequest } from './cds-request';
import { cdsServiceUrl, hookOf, isCdsServiceId, type CdsServiceId } from './cds-services';
import { checkCoverageCard, cdsUserId, type CdsClinic } from './coverage-check';
import { requirementCards } from './coverage-requirements';
import { assertKnowledgeBaseConfigured, loadKnowledgeBase } from './knowledge-base';
import { matchPatient, readEhrCoverages } from './match-patient';
import { requireCdsClients, verifyCdsJwt, type CdsCaller } from './verify-cds-jwt';

export type CdsDeps = {
  db: Db;
  clock: Clock;
  egress: Egress;
  config: Config;
  payer: () => PayerTransport;
  /** Where pulled EHR resources are (the EHR's own Patient, when the prefetched coverage is not on file). */
  fhirStore: () => FhirStore;
};

/** 404 for a service we do not offer; checked first, so an unknown id costs nothing. */
export function requireCdsService(id: string): CdsServiceId {
  if (!isCdsServiceId(id)) throw new AppError('NOT_FOUND', 'No such CDS service');
  return id;
}

/**
 * Runs one hook call. Throws NOT_FOUND (unknown service), NOT_CONFIGURED (no CDS_CLIENTS; coverage-requirements
 * in production without a knowledge base), UNAUTHENTICATED (the JWT), VALIDATION_FAILED (the body, or a hook
 * that is not the service's).
 */
export async function invokeCdsService(
  deps: CdsDeps,
  /** `readBody`: the request's JSON body, read only once the JWT has passed. */
  call: { serviceId: string; bearer: string | null; readBody: () => Promise<unknown>; correlationId: string },
): Promise<CdsResponse> {
  const serviceId = requireCdsService(call.serviceId);
  requireCdsClients(deps.config);
  if (serviceId === 'coverage-requirements') assertKnowledgeBaseConfigured(deps.config);
  const caller = await verifyCdsJwt(deps, call.bearer, [cdsServiceUrl(deps.config.appUrl, serviceId)]);
  const request = parseHookRequest(await call.readBody(), serviceId);

  const clinic = await findBoundClinic(deps.db, caller);
  const ehrCoverages = readEhrCoverages(request.prefetch?.coverage);
  const patient = await matchPatient({ db: deps.db, fhirStore: deps.fhirStore() }, clinic.id, {
    patientId: request.context.patientId,
    fhirServer: request.fhirServer,
    ehrCoverages,
  });
  const audit = {
    action: `cds-hooks.${serviceId}`,
    correlationId: call.correlationId,
    orgId: clinic.orgId,
    clinicId: clinic.id,
    userId: null,
    detail: { issuer: caller.issuer, hookInstance: request.hookInstance, matched: !!patient },
  };
  if (!patient) {
    await recordAudit(deps.db, { ...audit, outcome: 'success' });
    return {
      cards: [
        buildCard({
          summary: `Patient not found in ${clinic.name}`,
          indicator: 'info',
          detail: 'No patient of this clinic matches the EHR patient (by coverage on file or by a pulled record).',
        }),
      ],
    };
  }
  // Logged before anything about the patient is read or sent (the 270 of a live check included).
  await recordPhiAccess(
    deps.db,
    {
      orgId: clinic.orgId,
      clinicId: clinic.id,
      userId: cdsUserId(caller.issuer),
      purpose: `cds-hooks.${serviceId}`,
      correlationId: call.correlationId,
    },
    [patient.id],
    deps.clock(),
  );
  await recordAudit(deps.db, { ...audit, outcome: 'success' });

  if (serviceId === 'coverage-check') {
    const card = await checkCoverageCard(deps, {
      clinic,
      patient,
      ehrCoverages,
      correlationId: call.correlationId,
      issuer: caller.issuer,
      appUrl: deps.config.appUrl,
    });
    return { cards: [card] };
  }
  const base = await loadKnowledgeBase(deps);
  return { cards: requirementCards(base, patient, request.context.draftOrders) };
}

function parseHookRequest(body: unknown, serviceId: CdsServiceId): CdsHookRequest {
  const parsed = CdsHookRequest.safeParse(body);
  if (!parsed.success) {
    throw new AppError('VALIDATION_FAILED', 'The CDS Hooks request is malformed', {
      issues: parsed.error.issues.map((i) => ({ path: ['body', ...i.path].join('.'), message: i.message })),
    });
  }
  if (parsed.data.hook !== hookOf(serviceId)) {
    throw new AppError('VALIDATION_FAILED', `This service answers the ${hookOf(serviceId)} hook`, {
      issues: [{ path: 'body.hook', message: `Must be ${hookOf(serviceId)}` }],
    });
  }
  return parsed.data;
}

/** The clinic CDS_CLIENTS binds the issuer to; a binding to a clinic that does not exist trusts no one. */
export async function findBoundClinic(db: Db, caller: CdsCaller): Promise<CdsClinic> {
  const clinic = await db.clinic.findUnique({
    where: { id: caller.clinicId },
    select: { id: true, orgId: true, name: true, billingNpi: true, timeZone: true },
  });
  if (!clinic) {
    throw new AppError('UNAUTHENTICATED', 'A valid EHR token is required', {
      cause: new Error(`CDS_CLIENTS binds ${caller.issuer} to a clinic that does not exist`),
    });
  }
  return clinic;
}
