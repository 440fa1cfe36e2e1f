// The CDS services this server offers and their discovery document (CDS Hooks 2.0 "Discovery"; the list and
// prefetch templates are DECISIONS "CDS Hooks"). What each service answers is in coverage-check.ts and
// coverage-requirements.ts.
import { z } from 'zod';

export const CDS_SERVICE_IDS = ['coverage-check', 'coverage-requirements'] as const;
export type CdsServiceId = (typeof CDS_SERVICE_IDS)[number];

export const CDS_PREFETCH = {
  patient: 'Patient/{{context.patientId}}',
  coverage: 'Coverage?patient={{context.patientId}}&status=active',
} as const;

export const CdsService = z.object({
  hook: z.string(),
  id: z.string(),
  title: z.string(),
  description: z.string(),
  prefetch: z.record(z.string(), z.string()),
  usageRequirements: z.string().optional(),
});

export const CdsDiscovery = z.object({ services: z.array(CdsService) });
export type CdsDiscovery = z.infer<typeof CdsDiscovery>;

const SERVICES: Record<CdsServiceId, z.infer<typeof CdsService>> = {
  'coverage-check': {
    hook: 'appointment-book',
    id: 'coverage-check',
    title: 'Coverage check',
    description:
      "Shows the patient's insurance coverage for the visit being booked: active or not, copay, deductible " +
      'remaining, prior authorization and network, from the newest eligibility check (or a live one).',
    prefetch: { ...CDS_PREFETCH },
    usageRequirements: 'The EHR must be registered with this service by its operator (issuer, JWKS URL, clinic).',
  },
  'coverage-requirements': {
    hook: 'order-sign',
    id: 'coverage-requirements',
    title: 'Coverage requirements',
    description:
      "For each draft order's CPT/HCPCS code, the patient's payer's requirement: prior authorization, " +
      'documentation, or not covered (with covered alternatives where the payer names one).',
    prefetch: { ...CDS_PREFETCH },
    usageRequirements: 'The EHR must be registered with this service by its operator (issuer, JWKS URL, clinic).',
  },
};

export const isCdsServiceId = (id: string): id is CdsServiceId => (CDS_SERVICE_IDS as readonly string[]).includes(id);

export function buildCdsDiscovery(): CdsDiscovery {
  return { services: CDS_SERVICE_IDS.map((id) => SERVICES[id]) };
}

export const hookOf = (id: CdsServiceId) => SERVICES[id].hook;

/** The service's URL: what `aud` must be (CDS Hooks 2.0: the endpoint the discovery document names). */
export const cdsServiceUrl = (appUrl: string, id: string) => `${appUrl}/cds-services/${id}`;
