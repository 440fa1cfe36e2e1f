// `coverage-requirements` on `order-sign` (DECISIONS "CDS Hooks"): for each draft order's CPT/HCPCS code, the
// knowledge base's rule for the patient's payer: prior-auth → warning, documentation → info, not-covered →
// critical with a suggestion per covered alternative; no rule → no card. Scoping and audit are invoke's.
import { randomUUID } from 'node:crypto';
import { buildCard, SUMMARY_MAX, type CdsCard, type CdsSuggestion } from './cds-card';
import { findRule, type KnowledgeBase, type KnowledgeBaseRule } from './knowledge-base';
import type { MatchedPatient } from './match-patient';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Where each order type keeps its code (FHIR R4). */
const CODE_MEMBER: Record<string, string> = {
  ServiceRequest: 'code',
  MedicationRequest: 'medicationCodeableConcept',
  DeviceRequest: 'codeCodeableConcept',
};
// CPT (AMA) and HCPCS Level II, by their FHIR system URIs; a coding without a system is read if it looks like one.
const CODE_SYSTEMS = new Set([
  'http://www.ama-assn.org/go/cpt',
  'urn:oid:2.16.840.1.113883.6.12',
  'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  'http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  'urn:oid:2.16.840.1.113883.6.285',
  'urn:oid:2.16.840.1.113883.6.14',
]);
const CODE_SHAPE = /^[0-9A-Z]{5}$/;

export type DraftOrder = { resource: Json; member: string; codingIndex: number; code: string; display?: string };

/** Each draft order's first CPT/HCPCS coding. */
export function readDraftOrders(draftOrders: unknown): DraftOrder[] {
  const entries = isObject(draftOrders) && Array.isArray(draftOrders.entry) ? draftOrders.entry : [];
  const out: DraftOrder[] = [];
  for (const entry of entries) {
    const resource = isObject(entry) ? entry.resource : undefined;
    if (!isObject(resource) || typeof resource.resourceType !== 'string') continue;
    const member = CODE_MEMBER[resource.resourceType];
    const concept = member ? resource[member] : undefined;
    const codings = isObject(concept) && Array.isArray(concept.coding) ? concept.coding : [];
    const codingIndex = codings.findIndex(
      (c) =>
        isObject(c) &&
        typeof c.code === 'string' &&
        CODE_SHAPE.test(c.code) &&
        (c.system === undefined || CODE_SYSTEMS.has(String(c.system))),
    );
    if (codingIndex < 0) continue;
    const coding = codings[codingIndex] as Json;
    out.push({
      resource,
      member: member!,
      codingIndex,
      code: coding.code as string,
      display: typeof coding.display === 'string' ? coding.display : undefined,
    });
  }
  return out;
}

export function requirementCards(base: KnowledgeBase, patient: MatchedPatient, draftOrders: unknown): CdsCard[] {
  const coverage = patient.coverage;
  if (!coverage) return [];
  const cards: CdsCard[] = [];
  for (const order of readDraftOrders(draftOrders)) {
    const rule = findRule(base, coverage.payerId, order.code);
    if (rule) cards.push(cardFor(rule, order, coverage.payerName ?? coverage.payerId));
  }
  return cards;
}

function cardFor(rule: KnowledgeBaseRule, order: DraftOrder, payerName: string): CdsCard {
  const what = order.display ? `${order.code} (${order.display})` : order.code;
  const links = rule.url ? [{ label: `${payerName} policy`, url: rule.url, type: 'absolute' as const }] : undefined;
  const detail = `${payerName} on ${what}: ${rule.text}`;
  if (rule.requirement === 'prior-auth') {
    return buildCard({
      summary: summaryFor(order, `: prior authorization required by ${payerName}`),
      indicator: 'warning',
      detail,
      links,
    });
  }
  if (rule.requirement === 'documentation') {
    return buildCard({
      summary: summaryFor(order, `: ${payerName} requires documentation`),
      indicator: 'info',
      detail,
      links,
    });
  }
  const suggestions = (rule.alternatives ?? []).map((alternative) => suggestAlternative(order, alternative));
  return buildCard({
    summary: summaryFor(order, ` is not covered by ${payerName}`),
    indicator: 'critical',
    detail,
    links,
    ...(suggestions.length && { suggestions, selectionBehavior: 'at-most-one' as const }),
  });
}

/**
 * The summary leads with the order's code and ends with what the payer requires; the order's display goes in only
 * when the whole is still shorter than the specification's 140 characters, so the payer's name is never cut (the detail
 * always names the order in full).
 */
function summaryFor(order: DraftOrder, requirement: string): string {
  const withDisplay = order.display ? `${order.code} (${order.display})${requirement}` : '';
  return withDisplay && withDisplay.length <= SUMMARY_MAX ? withDisplay : `${order.code}${requirement}`;
}

// CDS Hooks 2.0 "Suggestion": an `update` action carries the whole draft order as it would be with the covered
// alternative's code in place of the uncovered one (its display dropped: we do not know the alternative's).
function suggestAlternative(order: DraftOrder, alternative: string): CdsSuggestion {
  const concept = order.resource[order.member] as Json;
  const codings = (concept.coding as Json[]).map((coding, i) => {
    if (i !== order.codingIndex) return coding;
    const { display: _display, ...rest } = coding;
    return { ...rest, code: alternative };
  });
  const { text: _text, ...conceptRest } = concept;
  return {
    label: `Order ${alternative} instead (covered)`,
    uuid: randomUUID(),
    actions: [
      {
        type: 'update',
        description: `Change ${order.code} to ${alternative}`,
        resource: { ...order.resource, [order.member]: { ...conceptRest, coding: codings } },
      },
    ],
  };
}
