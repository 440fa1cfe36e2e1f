// /patients/{id}: one patient's record (GET /api/patients/{id}): demographics, coverage on file (editable with
// claims:write, through PUT /api/patients/{id}/coverage), eligibility history and appointments.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { findCurrentPrincipal } from '@/lib/http/find-current-principal';
import { PatientRecord } from './patient-record';

export const metadata: Metadata = { title: 'Patient · Clinic Revenue Platform' };

export default async function PatientPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // The layout has signed the user in; the scopes decide whether the coverage can be edited here (the API checks again).
  const principal = await findCurrentPrincipal(await headers());
  const canEditCoverage = principal?.scopes.includes('claims:write') ?? false;
  return <PatientRecord patientId={decodeURIComponent(id)} canEditCoverage={canEditCoverage} />;
}
