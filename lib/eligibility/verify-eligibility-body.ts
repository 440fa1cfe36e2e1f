// The verify request body (SPEC "Eligibility verify request"): shared by the route and the verify screen's
// form, so the page shows the same field messages the API would answer. Pure zod: safe in a browser bundle.
import { z } from 'zod';
import { IsoDate, MemberId, Npi, PayerId, ServiceTypeCode, x12Text } from './x12-fields';

// A clinicId in the body is not part of the schema, so it is dropped: tenancy comes from the session only.
export const VerifyEligibilityBody = z.object({
  patientId: z.string({ error: 'patientId is required' }).trim().min(1, { error: 'patientId is required' }).max(100),
  firstName: x12Text('firstName', 35),
  lastName: x12Text('lastName', 60),
  dob: IsoDate('dob'),
  memberId: MemberId,
  payerName: x12Text('payerName', 60),
  payerId: PayerId.optional(),
  npi: Npi,
  serviceType: ServiceTypeCode.default('30'),
  dos: IsoDate('dos').optional(),
  explain: z.boolean({ error: 'explain must be true or false' }).default(false),
});
export type VerifyEligibilityBody = z.infer<typeof VerifyEligibilityBody>;
