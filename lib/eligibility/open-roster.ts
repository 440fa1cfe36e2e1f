// A roster's first statement: the clinic's billing provider, the batch's patients and their PHI access log, in ONE
// round trip. The log is the scope check (all or nothing, INSERT_ACCESS) and is written only when the batch can go
// on: every patient is the clinic's and a provider NPI is known (the request's, or the clinic's billing NPI), so a
// batch refused for either logs nothing. It replaces a clinic read the log had to wait for (to know the NPI), a
// 500-id patient read beside it and the log itself: 20-40 ms before the first 270 on two cores (bench roster).
import { accessParameter, insertAccess, type PhiAccess } from '../audit/record-phi-access';
import type { Db } from '../db';
import { AppError } from '../errors';
import { refuseOutOfClinic, type ClinicPatient } from '../patients/require-clinic-patients';

/** A provider NPI the roster can send: ten digits. The statement's gate below is the same rule in SQL. */
const NPI = /^\d{10}$/;

// $1 the PHI access (INSERT_ACCESS's parameter: the access and its distinct patient ids), $2 the clinic id, $3
// whether the request names its own provider NPI. One row per patient found (one row of nulls when none is), each
// carrying the clinic's fields and the number of log rows written. The patients are joined to the parameter's ids,
// not filtered by `id = ANY(array)`: the planner then scanned the clinic's patients comparing each with every id
// (10 ms for 500).
const OPEN_ROSTER = `WITH clinic AS (
    SELECT "name", "billingNpi", "billingProviderName" FROM "Clinic" WHERE "id" = $2
  ), logged AS (
    ${insertAccess(`$3::boolean OR EXISTS (SELECT 1 FROM clinic WHERE "billingNpi" ~ '^[0-9]{10}$')`)} RETURNING 1
  )
  SELECT (SELECT count(*) FROM logged)::int AS "logged",
    c."name" AS "clinicName", c."billingNpi", c."billingProviderName",
    p."id", p."firstName", p."lastName", p."birthDate", p."coverageMemberId", p."coveragePayerId", p."coveragePayerName"
  FROM (SELECT 1) AS one
  LEFT JOIN clinic AS c ON true
  LEFT JOIN (
    SELECT p.* FROM jsonb_array_elements_text($1::jsonb -> 'ids') AS asked ("patientId")
    JOIN "Patient" AS p ON p."id" = asked."patientId" AND p."clinicId" = $2
  ) AS p ON true`;

type Row = {
  logged: number;
  clinicName: string | null;
  billingNpi: string | null;
  billingProviderName: string | null;
} & (({ id: string } & Omit<ClinicPatient, 'id'>) | { [K in keyof ClinicPatient]: null });

export type OpenedRoster = { provider: { npi: string; name: string }; patients: Map<string, ClinicPatient> };

/**
 * @throws OUT_OF_SCOPE (403) when any patient is not the clinic's (first, whatever the NPI), VALIDATION_FAILED
 *   when neither the request nor the clinic has a provider NPI; nothing is logged then.
 */
export async function openRoster(
  db: Db,
  access: PhiAccess,
  patientIds: readonly string[],
  requested: { npi: string; name?: string | undefined } | undefined,
  now: Date,
): Promise<OpenedRoster> {
  const logging = accessParameter(access, patientIds, now);
  const found = await db.$queryRawUnsafe<Row[]>(OPEN_ROSTER, logging.json, access.clinicId, requested !== undefined);
  const patients = new Map<string, ClinicPatient>();
  for (const row of found) {
    if (row.id === null) continue;
    const { logged: _logged, clinicName: _name, billingNpi: _npi, billingProviderName: _provider, ...patient } = row;
    patients.set(row.id, patient);
  }
  if (patients.size !== logging.count) refuseOutOfClinic(access.clinicId, logging.count - patients.size, logging.count);
  const clinic = found[0]!;
  const npi = requested?.npi ?? clinic.billingNpi ?? '';
  if (!NPI.test(npi)) {
    throw new AppError('VALIDATION_FAILED', 'The clinic has no billing provider on file; send provider.npi', {
      issues: [{ path: 'body.provider.npi', message: 'Required: the clinic has no billing provider NPI on file' }],
    });
  }
  // Both checks passed, so the statement's gate did too: anything but every row logged is a fault, never a batch
  // that goes on without its log.
  if (clinic.logged !== logging.count)
    throw new Error(`PHI access log wrote ${clinic.logged} of ${logging.count} rows`);
  const name =
    requested?.name ??
    (npi === clinic.billingNpi ? clinic.billingProviderName : null) ??
    clinic.clinicName ??
    'PROVIDER';
  return { provider: { npi, name }, patients };
}
