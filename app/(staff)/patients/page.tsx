// /patients: the clinic's patients, searched by name, date of birth or member id (GET /api/patients).
import type { Metadata } from 'next';
import { PatientList } from './patient-list';

export const metadata: Metadata = { title: 'Patients · Clinic Revenue Platform' };

export default function PatientsPage() {
  return (
    <>
      <h1>Patients</h1>
      <p className="muted">Find a patient by name, date of birth or member id, then open their record.</p>
      <PatientList />
    </>
  );
}
