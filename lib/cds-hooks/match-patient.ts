// Which of the bound clinic's patients an EHR call is about (DECISIONS "CDS Hooks"): first by the prefetched
// active Coverage (payor identifier = payer id, subscriberId = member id) against coverage on file, else by the
// FHIR store's Patient of that EHR (source = the call's fhirServer) with the context's patientId, matched to our
// record by name and date of birth. Only ever inside `clinicId`: another clinic's patient is never a candidate.
import type { Db } from '../db';
import { equalsIgnoringCase } from '../db/text-filters';
import type { FhirStore } from '../fhir/fhir-store';
import { normalizeSource, servedId } from '../fhir/served-resource';

export type EhrCoverage = { payerId: string; memberId: string };
export type MatchedPatient = {
  id: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  coverage: { payerId: string; payerName: string | null; memberId: string } | null;
  /** How we found it: by the EHR's Coverage, or by its Patient in our FHIR store. */
  matchedBy: 'coverage' | 'fhir-patient';
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The active Coverages a prefetch holds (a Coverage, or a searchset Bundle of them), as payer and member ids. */
export function readEhrCoverages(prefetched: unknown): EhrCoverage[] {
  const resources = isObject(prefetched)
    ? prefetched.resourceType === 'Bundle' && Array.isArray(prefetched.entry)
      ? prefetched.entry.map((e) => (isObject(e) ? e.resource : undefined))
      : [prefetched]
    : [];
  const out: EhrCoverage[] = [];
  for (const r of resources) {
    if (!isObject(r) || r.resourceType !== 'Coverage' || (r.status !== undefined && r.status !== 'active')) continue;
    const memberId = str(r.subscriberId);
    const payors = Array.isArray(r.payor) ? r.payor : [];
    for (const payor of payors) {
      const payerId = isObject(payor) && isObject(payor.identifier) ? str(payor.identifier.value) : undefined;
      if (payerId && memberId) out.push({ payerId, memberId });
    }
  }
  return out;
}

const SELECT = {
  id: true,
  firstName: true,
  lastName: true,
  birthDate: true,
  coverageMemberId: true,
  coveragePayerId: true,
  coveragePayerName: true,
} as const;

type Row = {
  id: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  coverageMemberId: string | null;
  coveragePayerId: string | null;
  coveragePayerName: string | null;
};

const toMatched = (row: Row, matchedBy: MatchedPatient['matchedBy']): MatchedPatient => ({
  id: row.id,
  firstName: row.firstName,
  lastName: row.lastName,
  birthDate: row.birthDate,
  coverage:
    row.coverageMemberId && row.coveragePayerId
      ? { payerId: row.coveragePayerId, payerName: row.coveragePayerName, memberId: row.coverageMemberId }
      : null,
  matchedBy,
});

// A prefetch may hold any number of Coverages; each costs a query, so only the first few are tried.
const MAX_EHR_COVERAGES = 5;

/**
 * The one patient of `clinicId` the call is about, or null (none, or more than one candidate: never a guess). The
 * EHR's own Patient is read only from that EHR's source (its `fhirServer`), under the id a pull served it as: a
 * call without `fhirServer` names no source, and is matched by coverage alone.
 */
export async function matchPatient(
  deps: { db: Db; fhirStore: Pick<FhirStore, 'read'> },
  clinicId: string,
  call: { patientId: string; fhirServer?: string; ehrCoverages: EhrCoverage[] },
): Promise<MatchedPatient | null> {
  for (const { payerId, memberId } of call.ehrCoverages.slice(0, MAX_EHR_COVERAGES)) {
    const rows = await deps.db.patient.findMany({
      where: { clinicId, coveragePayerId: equalsIgnoringCase(payerId), coverageMemberId: equalsIgnoringCase(memberId) },
      select: SELECT,
      take: 2,
    });
    if (rows.length === 1) return toMatched(rows[0]!, 'coverage');
  }
  const source = normalizeSource(call.fhirServer);
  if (!source) return null;
  const resource = await deps.fhirStore.read(clinicId, 'Patient', servedId(source, call.patientId));
  if (!resource) return null;
  const name = Array.isArray(resource.name) && isObject(resource.name[0]) ? resource.name[0] : undefined;
  const family = str(name?.family);
  const given = Array.isArray(name?.given) ? str(name.given[0]) : undefined;
  const birthDate = str(resource.birthDate);
  if (!family || !given || !birthDate) return null;
  const rows = await deps.db.patient.findMany({
    where: { clinicId, birthDate, lastName: equalsIgnoringCase(family), firstName: equalsIgnoringCase(given) },
    select: SELECT,
    take: 2,
  });
  return rows.length === 1 ? toMatched(rows[0]!, 'fhir-patient') : null;
}
