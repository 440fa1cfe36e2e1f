// Whether an EHR offers FHIR Bulk Data export, from its CapabilityStatement (`GET {base}/metadata`, public in
// FHIR R4). Servers declare it in different places: an operation named `export` at the system level (rest.operation)
// or on Group (rest.resource[type=Group].operation), an operation whose definition is one of the IG's
// OperationDefinitions, or the IG's CapabilityStatement in `instantiates`. Any of them counts; nothing else does.
import { z } from 'zod';
import { egressError, loggableUrl, MIB, type Egress } from '../outbound/egress';

const BULK_DATA_CAPABILITY = /^http:\/\/hl7\.org\/fhir\/uv\/bulkdata\/CapabilityStatement\/bulk-data(\|.*)?$/;
const Operation = z.looseObject({ name: z.string().optional(), definition: z.string().optional() });
const CapabilityStatement = z.looseObject({
  resourceType: z.literal('CapabilityStatement'),
  instantiates: z.array(z.string()).optional(),
  rest: z
    .array(
      z.looseObject({
        mode: z.string().optional(),
        operation: z.array(Operation).optional(),
        resource: z.array(z.looseObject({ type: z.string(), operation: z.array(Operation).optional() })).optional(),
      }),
    )
    .optional(),
});
export type CapabilityStatement = z.infer<typeof CapabilityStatement>;

export type ExportLevel = 'group' | 'system';

const MAX_METADATA_BYTES = 8 * MIB;
const TIMEOUT_MS = 15_000;

/** Reads `{base}/metadata`. Throws the neutral EMR AppError when it is unreachable or not a CapabilityStatement. */
export async function readCapabilityStatement(egress: Egress, baseUrl: string): Promise<CapabilityStatement> {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/metadata`);
  const response = await egress.request({
    url,
    headers: { accept: 'application/fhir+json' },
    target: 'operator',
    purpose: 'emr',
    maxBodyBytes: MAX_METADATA_BYTES,
    timeoutMs: TIMEOUT_MS,
  });
  const where = loggableUrl(url);
  if (response.status !== 200) throw egressError('emr', { reason: 'status', url: where, status: response.status });
  let parsed: CapabilityStatement | undefined;
  try {
    parsed = CapabilityStatement.safeParse(JSON.parse(response.text())).data;
  } catch (error) {
    throw egressError('emr', { reason: 'invalid-body', url: where, problem: 'not JSON' }, error);
  }
  if (!parsed) throw egressError('emr', { reason: 'invalid-body', url: where, problem: 'not a CapabilityStatement' });
  return parsed;
}

export function offersExport(statement: CapabilityStatement, level: ExportLevel): boolean {
  if (statement.instantiates?.some((url) => BULK_DATA_CAPABILITY.test(url))) return true;
  const isExport = (op: z.infer<typeof Operation>, definition: RegExp) =>
    op.name === 'export' || op.name === '$export' || (op.definition !== undefined && definition.test(op.definition));
  const server = (statement.rest ?? []).filter((rest) => rest.mode === undefined || rest.mode === 'server');
  if (level === 'system') {
    return server.some((rest) => (rest.operation ?? []).some((op) => isExport(op, /OperationDefinition\/export$/)));
  }
  return server.some(
    (rest) =>
      (rest.operation ?? []).some(
        (op) => op.definition !== undefined && /OperationDefinition\/group-export$/.test(op.definition),
      ) ||
      (rest.resource ?? []).some(
        (resource) =>
          resource.type === 'Group' &&
          (resource.operation ?? []).some((op) => isExport(op, /OperationDefinition\/group-export$/)),
      ),
  );
}
