// The sandbox's embedded knowledge base (docs/cds-hooks.md names it): a few rules for the demo payer (Aetna,
// 60054) so coverage-requirements has something to say in the demo. Synthetic: not any payer's real policy.
// Production never uses it (knowledge-base.ts answers 501 there without CDS_KNOWLEDGE_BASE_URL).
import type { KnowledgeBase } from './knowledge-base';

export const SANDBOX_KNOWLEDGE_BASE: KnowledgeBase = {
  version: 'sandbox-2026-11-28',
  rules: [
    {
      payerId: '60054',
      codes: ['70551-70553', '72141-72158'],
      requirement: 'prior-auth',
      text: 'MRI of the brain or spine requires prior authorization before it is scheduled (sandbox rule).',
      url: 'https://example.org/sandbox-payer/policies/advanced-imaging',
    },
    {
      payerId: '60054',
      codes: ['97110'],
      requirement: 'documentation',
      text: 'Therapeutic exercise: document the plan of care and functional goals in the visit note (sandbox rule).',
      url: 'https://example.org/sandbox-payer/policies/physical-therapy',
    },
    {
      payerId: '60054',
      codes: ['97810-97814'],
      requirement: 'not-covered',
      text: 'Acupuncture is not covered under this plan; manual therapy is (sandbox rule).',
      alternatives: ['97140'],
    },
    {
      payerId: '60054',
      codes: ['E0601'],
      requirement: 'documentation',
      text: 'CPAP: document a face-to-face evaluation and a qualifying sleep test before the device is dispensed (sandbox rule).',
      url: 'https://example.org/sandbox-payer/policies/dme',
    },
    {
      payerId: '60054',
      codes: ['E0784'],
      requirement: 'not-covered',
      text: 'External ambulatory insulin infusion pumps are not covered under this plan; a supply of insulin pens is (sandbox rule).',
      url: 'https://example.org/sandbox-payer/policies/dme',
      alternatives: ['A4211'],
    },
  ],
};
