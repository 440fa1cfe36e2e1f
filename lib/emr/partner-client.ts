// The partner API pull (DECISIONS "EMR and FHIR"): FHIR R4 REST search of the six sync resource types updated
// within [from, to], authenticated with the server-side partner API key and scoped to the clinic's partner
// account (X-Partner-Account, DECISIONS "Trust boundaries"). Does not write to the FHIR store.
import { z } from 'zod';
import { searchAll } from '@/lib/fhir/fhir-search-client';
import { SYNC_RESOURCE_TYPES, type FhirResource, type SyncResourceType } from '@/lib/fhir/types';
import { AppError } from '@/lib/errors';
import type { Egress } from '@/lib/outbound/egress';

export type PartnerPullInput = {
  /** PARTNER_API_URL, the partner's FHIR base. */
  baseUrl: string;
  /** PARTNER_API_KEY, sent as a bearer token. */
  apiKey: string;
  /** The clinic's partner account (PARTNER_API_ACCOUNTS), sent as X-Partner-Account on every request. */
  accountId: string;
  /** ISO-8601 instants with an offset or Z, inclusive bounds. */
  from: string;
  to: string;
  egress: Egress;
  timeoutMs?: number;
};

const Instant = z.iso.datetime({ offset: true });

/**
 * Reads every resource of each sync type with `_lastUpdated` in [from, to] (`ge{from}` and `le{to}`, FHIR R4
 * search prefixes), following next links. Types are read one after another to stay gentle on the partner.
 * Throws AppError VALIDATION_FAILED for bad bounds (no network call) and TRANSPORT_FAILED as searchAll does;
 * nothing is returned unless every type was read completely.
 */
export async function pullPartnerResources(input: PartnerPullInput): Promise<Record<SyncResourceType, FhirResource[]>> {
  const issues = [
    ...(Instant.safeParse(input.from).success ? [] : [{ path: 'from', message: 'Must be an ISO-8601 instant' }]),
    ...(Instant.safeParse(input.to).success ? [] : [{ path: 'to', message: 'Must be an ISO-8601 instant' }]),
  ];
  if (issues.length === 0 && Date.parse(input.from) > Date.parse(input.to)) {
    issues.push({ path: 'from', message: 'Must not be after to' });
  }
  if (issues.length > 0) throw new AppError('VALIDATION_FAILED', 'Invalid partner pull range', { issues });

  const result = {} as Record<SyncResourceType, FhirResource[]>;
  for (const resourceType of SYNC_RESOURCE_TYPES) {
    result[resourceType] = await searchAll({
      baseUrl: input.baseUrl,
      resourceType,
      params: { _lastUpdated: [`ge${input.from}`, `le${input.to}`] },
      accessToken: input.apiKey,
      headers: { 'x-partner-account': input.accountId },
      egress: input.egress,
      target: 'operator',
      purpose: 'partner',
      ...(input.timeoutMs !== undefined && { timeoutMs: input.timeoutMs }),
    });
  }
  return result;
}
