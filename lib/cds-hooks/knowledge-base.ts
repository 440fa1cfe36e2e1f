// The payer-rules knowledge base behind coverage-requirements (DECISIONS "CDS Hooks"): its JSON shape, how a
// code matches a rule, and where the document comes from (CDS_KNOWLEDGE_BASE_URL through the egress client,
// cached and refreshed hourly; the embedded sandbox rules; 501 in production without it). Pure apart from
// loadKnowledgeBase's fetch.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { AppError } from '../errors';
import { egressError, loggableUrl, MIB, type Egress } from '../outbound/egress';
import { SANDBOX_KNOWLEDGE_BASE } from './sandbox-knowledge-base';

const Code = z.string().regex(/^[0-9A-Z]{5}(-[0-9A-Z]{5})?$/, 'a CPT/HCPCS code or a range "72141-72158"');

export const Requirement = z.enum(['prior-auth', 'documentation', 'not-covered']);
export type Requirement = z.infer<typeof Requirement>;

export const KnowledgeBaseRule = z.object({
  payerId: z.string().min(1).max(80),
  codes: z.array(Code).min(1).max(1000),
  requirement: Requirement,
  /** The payer's own words, shown on the card. */
  text: z.string().min(1).max(2000),
  url: z.url({ protocol: /^https?$/ }).optional(),
  alternatives: z
    .array(z.string().regex(/^[0-9A-Z]{5}$/))
    .max(10)
    .optional(),
});
export type KnowledgeBaseRule = z.infer<typeof KnowledgeBaseRule>;

export const KnowledgeBase = z.object({
  version: z.string().min(1).max(100),
  rules: z.array(KnowledgeBaseRule).max(50_000),
});
export type KnowledgeBase = z.infer<typeof KnowledgeBase>;

/** Whether `code` is `pattern` or inside the range `pattern` names (same length, same leading letter). */
export function codeMatches(pattern: string, code: string): boolean {
  const [low, high] = pattern.split('-');
  if (!high) return pattern === code;
  return code.length === low!.length && code >= low! && code <= high;
}

/** The first rule of the payer that names the code, or null (no rule: no card). */
export function findRule(base: KnowledgeBase, payerId: string, code: string): KnowledgeBaseRule | null {
  return base.rules.find((r) => r.payerId === payerId && r.codes.some((p) => codeMatches(p, code))) ?? null;
}

export type KnowledgeBaseDeps = {
  clock: Clock;
  egress: Egress;
  config: Pick<Config, 'cdsKnowledgeBaseUrl' | 'mode'>;
};

export const REFRESH_MS = 60 * 60_000;
type Cached = { base: KnowledgeBase; fetchedAt: number; url: string };
let cached: Cached | undefined;

/**
 * 501 NOT_CONFIGURED, before any work and with zero calls, when production has no CDS_KNOWLEDGE_BASE_URL
 * (SPEC: "CDS knowledge base"); the sandbox then uses its embedded rules.
 */
export function assertKnowledgeBaseConfigured(config: Pick<Config, 'cdsKnowledgeBaseUrl' | 'mode'>): void {
  if (config.cdsKnowledgeBaseUrl || config.mode === 'sandbox') return;
  throw new AppError('NOT_CONFIGURED', 'The coverage rules knowledge base is not configured', {
    cause: new Error('unconfigured: CDS_KNOWLEDGE_BASE_URL'),
  });
}

/**
 * The rules in force: the configured document, fetched at most once an hour per process (a failed refresh keeps
 * serving the last good copy and tries again on the next call); the embedded sandbox rules when no URL is set.
 * Throws NOT_CONFIGURED (see above), TRANSPORT_FAILED when no copy could ever be read.
 */
export async function loadKnowledgeBase(deps: KnowledgeBaseDeps): Promise<KnowledgeBase> {
  assertKnowledgeBaseConfigured(deps.config);
  const url = deps.config.cdsKnowledgeBaseUrl;
  if (!url) return SANDBOX_KNOWLEDGE_BASE;
  const now = deps.clock().getTime();
  if (cached && cached.url === url && now - cached.fetchedAt < REFRESH_MS) return cached.base;
  try {
    cached = { base: await fetchKnowledgeBase(deps.egress, url), fetchedAt: now, url };
  } catch (error) {
    if (cached?.url === url) return cached.base;
    throw error;
  }
  return cached.base;
}

async function fetchKnowledgeBase(egress: Egress, url: string): Promise<KnowledgeBase> {
  const res = await egress.request({
    url,
    headers: { accept: 'application/json' },
    target: 'operator',
    purpose: 'knowledge-base',
    maxBodyBytes: 10 * MIB,
    timeoutMs: 15_000,
  });
  const where = loggableUrl(new URL(url));
  if (res.status !== 200) throw egressError('knowledge-base', { reason: 'status', status: res.status, url: where });
  try {
    return KnowledgeBase.parse(JSON.parse(res.text()));
  } catch (error) {
    throw egressError('knowledge-base', { reason: 'invalid-body', url: where }, error);
  }
}
