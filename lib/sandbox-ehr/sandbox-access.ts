// Who may read what on the sandbox EHR. Every FHIR call carries `Authorization: Bearer <access token>`: a
// patient-launch token reads only its patient's compartment in its clinic's Group; a backend (client_credentials)
// token reads the Groups of the clinics this deployment holds, like a real EHR registration that was granted them.
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { FhirResource } from '../fhir/types';
import { clinicRecords, patientIdOf, type ClinicRecords } from './synthetic-records';
import { openValue, type AccessToken } from './sandbox-tokens';

export type SandboxDeps = { config: Config; clock: Clock; db: Db };

const unauthenticated = (why: string) =>
  new AppError('UNAUTHENTICATED', 'A valid access token is required', {
    cause: new Error(why),
    // RFC 6750 section 3: tell the client to get a new token.
    headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
  });

/** The access token of `Authorization: Bearer …`; 401 when absent, tampered with or expired. */
export function requireAccessToken(
  deps: Pick<SandboxDeps, 'config' | 'clock'>,
  authorization: string | null,
): AccessToken {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) throw unauthenticated('no bearer token');
  const token = openValue(deps.config, deps.clock, 'access', match[1]);
  if (!token) throw unauthenticated('invalid or expired access token');
  return token;
}

/** SMART scopes (v1 `.read` or v2 `.rs`, `*` for every type) for a read or search of `type`. */
export function requireScopeFor(token: AccessToken, type: string): void {
  const level = token.patient ? 'patient' : 'system';
  const granted = token.scope.split(' ').some((scope) => {
    const m = /^(patient|user|system)\/([A-Za-z*]+)\.(read|rs|r|s|\*)$/.exec(scope);
    return m && m[1] === level && (m[2] === '*' || m[2] === type);
  });
  if (!granted) throw new AppError('FORBIDDEN', `The access token does not grant ${type}`);
}

/** The clinics whose Groups this EHR serves: the clinics of this deployment (sandbox: the demo tenant). */
async function servedClinics(db: Db): Promise<ClinicRecords[]> {
  const clinics = await db.clinic.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
  return clinics.map((clinic) => clinicRecords(clinic.id));
}

export async function findGroup(db: Db, groupId: string): Promise<ClinicRecords | null> {
  return (await servedClinics(db)).find((records) => records.groupId === groupId) ?? null;
}

/** The records a token may see: its own clinic (patient token), or every served clinic (backend token). */
export async function recordsFor(deps: SandboxDeps, token: AccessToken): Promise<ClinicRecords[]> {
  if (token.clinicId) return [clinicRecords(token.clinicId)];
  return servedClinics(deps.db);
}

/** A patient token sees only its patient's compartment. */
export function isVisibleTo(token: AccessToken, resource: FhirResource): boolean {
  return !token.patient || patientIdOf(resource) === token.patient;
}

export function requireBackendToken(token: AccessToken): void {
  if (token.patient) throw new AppError('FORBIDDEN', 'Group access needs a backend services (system) token');
}
