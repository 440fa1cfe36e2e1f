// emr.patient.updated: the EMR changed a patient's demographics. Only name, birth date, address and phone
// cross the bridge; anything else in the data (diagnoses, medications, notes...) is dropped by the schema and
// never stored. The patient must belong to the event's clinic. An update older than the last one applied to the
// patient is stale and changes nothing (apply-in-order.ts), so a late event cannot roll demographics back.
import { z } from 'zod';
import type { Prisma } from '../db';
import { applied, defineEffect, recorded, rejected } from './event-effect';
import { applyInOrder } from './apply-in-order';

const Text = (max: number) => z.string().trim().min(1).max(max);

// FHIR R4 HumanName / Address words, as an EMR sends them. `given` may be one string or FHIR's array.
export const EmrPatientUpdatedData = z.object({
  patientId: Text(200),
  name: z
    .object({
      given: z.union([Text(100), z.array(Text(100)).min(1).max(5)]).optional(),
      family: Text(100).optional(),
    })
    .optional(),
  birthDate: z.iso.date({ message: 'birthDate must be YYYY-MM-DD' }).optional(),
  address: z
    .object({
      line: z.array(Text(200)).max(4).optional(),
      city: Text(100).optional(),
      state: Text(100).optional(),
      postalCode: Text(20).optional(),
      country: Text(100).optional(),
    })
    .optional(),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()./-]{3,40}$/, 'phone must be a telephone number')
    .optional(),
});
type EmrPatientUpdatedData = z.infer<typeof EmrPatientUpdatedData>;

function demographicsOf(data: EmrPatientUpdatedData): Prisma.PatientUpdateManyMutationInput {
  const change: Prisma.PatientUpdateManyMutationInput = {};
  const given = data.name?.given;
  if (given !== undefined) change.firstName = Array.isArray(given) ? given.join(' ') : given;
  if (data.name?.family !== undefined) change.lastName = data.name.family;
  if (data.birthDate !== undefined) change.birthDate = data.birthDate;
  if (data.address !== undefined) change.address = data.address;
  if (data.phone !== undefined) change.phone = data.phone;
  return change;
}

export const emrPatientUpdated = defineEffect({
  receiver: 'emr',
  data: EmrPatientUpdatedData,
  apply: (tx, { clinicId, createdAt, data }) =>
    applyInOrder(tx, { clinicId, objectType: 'patient', objectId: data.patientId }, createdAt, async () => {
      const change = demographicsOf(data);
      if (Object.keys(change).length === 0) return recorded('no demographic fields to update');
      const { count } = await tx.patient.updateMany({ where: { id: data.patientId, clinicId }, data: change });
      return count === 1 ? applied() : rejected('patient not found in this clinic');
    }),
});
