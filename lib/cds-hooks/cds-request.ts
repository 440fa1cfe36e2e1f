// The body of a CDS service call (CDS Hooks 2.0 "HTTP Request") and of a feedback call, as zod schemas. FHIR
// resources inside stay opaque records: each service reads the few members it needs and ignores the rest.
import { z } from 'zod';

const FhirResourceJson = z.looseObject({ resourceType: z.string() });
const BundleJson = z.looseObject({
  resourceType: z.literal('Bundle'),
  entry: z
    .array(z.looseObject({ resource: FhirResourceJson.optional() }))
    .max(500)
    .optional(),
});

export const CdsHookRequest = z.object({
  hook: z.string().min(1).max(100),
  hookInstance: z.string().min(1).max(200),
  fhirServer: z.url().optional(),
  fhirAuthorization: z.unknown().optional(),
  context: z.looseObject({
    userId: z.string().max(300).optional(),
    patientId: z.string().min(1).max(200),
    encounterId: z.string().max(200).optional(),
    appointments: BundleJson.optional(),
    draftOrders: BundleJson.optional(),
  }),
  prefetch: z.record(z.string(), z.unknown().nullable()).optional(),
});
export type CdsHookRequest = z.infer<typeof CdsHookRequest>;

const OverrideReason = z.object({
  reason: z.looseObject({ code: z.string().max(200).optional(), display: z.string().max(500).optional() }).optional(),
  userComment: z.string().max(2000).optional(),
});

export const CdsFeedbackItem = z.object({
  card: z.string().min(1).max(200),
  outcome: z.enum(['accepted', 'overridden']),
  acceptedSuggestions: z
    .array(z.object({ id: z.string().max(200) }))
    .max(50)
    .optional(),
  overrideReason: OverrideReason.optional(),
  outcomeTimestamp: z.iso.datetime({ offset: true }).optional(),
});

/** CDS Hooks 2.0 sends `{ feedback: [...] }`; DECISIONS' single `{ card, outcome, overrideReason? }` is also taken. */
export const CdsFeedbackBody = z.union([
  z.object({ feedback: z.array(CdsFeedbackItem).min(1).max(50) }),
  CdsFeedbackItem,
]);
export type CdsFeedbackBody = z.infer<typeof CdsFeedbackBody>;
