// What a SMART backend pull reads for a clinic bound to one EHR Group (DECISIONS "Trust boundaries"), where the
// EHR offers no Bulk Data export: `Group/{id}` is read for its patients, then each sync type is searched by those
// patients only (Patient by `_id`, the others by `patient`), batched as comma-separated values (FHIR search OR).
// Never reads outside the Group. Each search's resources are handed to `add` as soon as it completes, so at most
// one search (PATIENTS_PER_SEARCH patients' resources of one type) is held; a resource two searches return is
// staged twice and committed once (the commit keeps the latest copy).
import { z } from 'zod';
import { searchAll } from '../fhir/fhir-search-client';
import { SYNC_RESOURCE_TYPES } from '../fhir/types';
import { egressError, loggableUrl, MIB, type Egress } from '../outbound/egress';

// Ids per search request: keeps the URL far below common 8 KiB limits (64-character ids at most).
const PATIENTS_PER_SEARCH = 50;
const MAX_GROUP_BYTES = 32 * MIB;
const TIMEOUT_MS = 15_000;
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

const Group = z.object({
  resourceType: z.literal('Group'),
  member: z
    .array(z.object({ entity: z.object({ reference: z.string().optional() }), inactive: z.boolean().optional() }))
    .optional(),
});

type GroupRead = { egress: Egress; baseUrl: string; groupId: string; accessToken: string; since?: string };

export async function readGroupResources(input: GroupRead, add: (resource: unknown) => Promise<void>): Promise<void> {
  const patientIds = await readGroupPatients(input);
  for (const resourceType of SYNC_RESOURCE_TYPES) {
    for (let i = 0; i < patientIds.length; i += PATIENTS_PER_SEARCH) {
      const batch = patientIds.slice(i, i + PATIENTS_PER_SEARCH).join(',');
      const found = await searchAll({
        baseUrl: input.baseUrl,
        resourceType,
        accessToken: input.accessToken,
        egress: input.egress,
        target: 'operator',
        purpose: 'emr',
        params: {
          [resourceType === 'Patient' ? '_id' : 'patient']: batch,
          ...(input.since && { _lastUpdated: `ge${input.since}` }),
        },
      });
      for (const resource of found) await add(resource);
    }
  }
}

/** The ids of the Group's active Patient members on this server. */
async function readGroupPatients(input: GroupRead): Promise<string[]> {
  const base = input.baseUrl.replace(/\/+$/, '');
  const url = new URL(`${base}/Group/${encodeURIComponent(input.groupId)}`);
  const response = await input.egress.request({
    url,
    headers: { accept: 'application/fhir+json', authorization: `Bearer ${input.accessToken}` },
    target: 'operator',
    purpose: 'emr',
    maxBodyBytes: MAX_GROUP_BYTES,
    timeoutMs: TIMEOUT_MS,
  });
  const where = loggableUrl(url);
  if (response.status !== 200) throw egressError('emr', { reason: 'status', url: where, status: response.status });
  let parsed: z.infer<typeof Group> | undefined;
  try {
    parsed = Group.safeParse(JSON.parse(response.text())).data;
  } catch (error) {
    throw egressError('emr', { reason: 'invalid-body', url: where, problem: 'not JSON' }, error);
  }
  if (!parsed) throw egressError('emr', { reason: 'invalid-body', url: where, problem: 'not a Group' });
  const ids = new Set<string>();
  for (const member of parsed.member ?? []) {
    if (member.inactive) continue;
    const id = patientIdOf(member.entity.reference, base);
    if (id) ids.add(id);
  }
  return [...ids];
}

// `Patient/{id}`, or the absolute form on this same server; members of other types or servers are not ours to read.
function patientIdOf(reference: string | undefined, base: string): string | null {
  if (!reference) return null;
  const relative = reference.startsWith(`${base}/`) ? reference.slice(base.length + 1) : reference;
  const match = /^Patient\/([^/]+)$/.exec(relative);
  return match && FHIR_ID.test(match[1]!) ? match[1]! : null;
}
