// What a read of an EMR connection shows: status, whether the browser authorization can start, and never the
// client id, a secret or a token (hasClientId says a client id is stored). Also the 404/403 lookup rules.
import { z } from 'zod';
import { EMR_VENDOR_KINDS, type Config } from '../config';
import type { Db } from '../db';
import { AppError } from '../errors';
import { findSmartBackendGroup } from './integration-binding';

export const CONNECTION_STATUSES = ['pending', 'connected', 'needs-registration'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export const EmrConnectionView = z.object({
  id: z.string(),
  vendor: z.enum(EMR_VENDOR_KINDS),
  status: z.enum(CONNECTION_STATUSES),
  canAuthorize: z.boolean(),
  hasClientId: z.boolean(),
  fhirBaseUrl: z.string().nullable(),
  grantedScope: z.string().nullable(),
  tokenExpiresAt: z.string().nullable(),
  connectedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EmrConnectionView = z.infer<typeof EmrConnectionView>;

export type ConnectionRow = NonNullable<Awaited<ReturnType<Db['emrConnection']['findUnique']>>>;

/**
 * DECISIONS "EMR and FHIR": true when a client id is stored and the authorize endpoint is known, from the
 * connection's own fhirBaseUrl (SMART discovery) or from its vendor's EMR_VENDORS entry, which must then also
 * name the FHIR base (the `aud` of the request).
 */
export function canAuthorize(
  row: Pick<ConnectionRow, 'clientId' | 'fhirBaseUrl' | 'vendor'>,
  config: Pick<Config, 'emrVendors'>,
): boolean {
  if (!row.clientId) return false;
  if (row.fhirBaseUrl) return true;
  const entry = config.emrVendors[row.vendor as keyof Config['emrVendors']];
  return !!(entry?.authorizeUrl && entry.fhirBaseUrl);
}

/**
 * A smart-backend connection pulls with the deployment's SMART registration, so whether it can pull is the
 * operator's binding of its clinic (DECISIONS "Trust boundaries"), not anything stored on the row.
 */
function statusOf(row: ConnectionRow, config: Pick<Config, 'emrVendors'>): ConnectionStatus {
  if (row.vendor === 'smart-backend')
    return findSmartBackendGroup(config, row.clinicId) ? 'connected' : 'needs-registration';
  return row.status as ConnectionStatus;
}

export function toConnectionView(row: ConnectionRow, config: Pick<Config, 'emrVendors'>): EmrConnectionView {
  return {
    id: row.id,
    vendor: row.vendor as EmrConnectionView['vendor'],
    status: statusOf(row, config),
    canAuthorize: canAuthorize(row, config),
    hasClientId: !!row.clientId,
    fhirBaseUrl: row.fhirBaseUrl,
    grantedScope: row.grantedScope,
    tokenExpiresAt: row.tokenExpiresAt?.toISOString() ?? null,
    connectedAt: row.connectedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The connection if it belongs to the clinic. Unknown id: `missing` (NOT_FOUND by default). Another clinic's:
 * `foreign`, NOT_FOUND unless SPEC names 403 for the route (authorize, SMART pull).
 */
export async function getClinicConnection(
  db: Db,
  input: { clinicId: string; id: string },
  errors: { missing?: AppError; foreign?: AppError } = {},
): Promise<ConnectionRow> {
  const row = await db.emrConnection.findUnique({ where: { id: input.id } });
  if (!row) throw errors.missing ?? new AppError('NOT_FOUND', 'No such EMR connection');
  if (row.clinicId !== input.clinicId) throw errors.foreign ?? new AppError('NOT_FOUND', 'No such EMR connection');
  return row;
}
