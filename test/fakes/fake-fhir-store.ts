// A local fake of an external FHIR R4 server (FHIR_STORE_URL) over loopback HTTP: transaction Bundles of PUTs
// applied all-or-nothing with server-side versioning (a PUT of identical content keeps its version), read, and
// type-level search with _tag, _id, _lastUpdated, patient, patient:missing, _count, _summary=count and next links.
// It records what it received so tests can check the REST adapter's requests. Test-only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Resource = { resourceType: string; id: string; meta?: Record<string, unknown>; [k: string]: unknown };

export type FakeFhirStore = {
  baseUrl: string;
  requests: { total: number; transactions: number };
  /** Every transaction Bundle received, as parsed JSON. */
  receivedTransactions: Array<{
    type: string;
    entry: Array<{ resource: Resource; request: { method: string; url: string } }>; // DELETE entries carry no resource
  }>;
  /** Every search URL received. */
  receivedSearches: URL[];
  /** Stored resources by "Type/id". */
  resources: Map<string, Resource>;
  /** The next request of this method answers `status` (a transaction then writes nothing). */
  failNext(method: 'GET' | 'POST', status: number): void;
  close(): Promise<void>;
};

const BASE_PATH = '/fhir';

export async function startFakeFhirStore(): Promise<FakeFhirStore> {
  const resources = new Map<string, Resource>();
  const requests = { total: 0, transactions: 0 };
  const receivedTransactions: FakeFhirStore['receivedTransactions'] = [];
  const receivedSearches: URL[] = [];
  const failures: Record<string, number[]> = { GET: [], POST: [] };
  let clock = Date.parse('2030-01-01T00:00:00Z');

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, outcome('exception', String(error))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrl = `${origin}${BASE_PATH}`;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    requests.total += 1;
    const url = new URL(req.url ?? '/', origin);
    const failure = failures[req.method ?? '']?.shift();
    if (failure !== undefined) return send(res, failure, outcome('transient', 'simulated failure'));
    if (req.method === 'POST' && url.pathname === BASE_PATH) return transaction(JSON.parse(await readBody(req)), res);
    const parts = url.pathname.slice(BASE_PATH.length + 1).split('/');
    if (req.method === 'GET' && parts.length === 2) {
      const found = resources.get(`${parts[0]}/${parts[1]}`);
      return found ? send(res, 200, found) : send(res, 404, outcome('not-found', 'unknown resource'));
    }
    if (req.method === 'GET' && parts.length === 1 && parts[0]) return search(parts[0], url, res);
    send(res, 404, outcome('not-supported', 'unknown path'));
  }

  function transaction(
    bundle: FakeFhirStore['receivedTransactions'][number] & { resourceType: string },
    res: http.ServerResponse,
  ) {
    requests.transactions += 1;
    receivedTransactions.push(bundle);
    if (bundle.resourceType !== 'Bundle' || bundle.type !== 'transaction')
      return send(res, 400, outcome('invalid', 'not a transaction'));
    const staged = new Map(resources);
    const answers: Array<{ response: { status: string; etag: string } }> = [];
    for (const entry of bundle.entry ?? []) {
      const [type, id] = entry.request.url.split('/');
      if (entry.request.method === 'DELETE') {
        // FHIR R4 transaction: a DELETE of something absent is not an error; 204 when gone, 404 when never there.
        const existed = staged.delete(`${type}/${id}`);
        answers.push({ response: { status: existed ? '204 No Content' : '404 Not Found', etag: '' } });
        continue;
      }
      if (entry.request.method !== 'PUT' || entry.resource.resourceType !== type || entry.resource.id !== id) {
        return send(res, 400, outcome('invalid', 'entry does not match its request')); // nothing applied
      }
      const key = `${type}/${id}`;
      const previous = staged.get(key);
      const same =
        previous && JSON.stringify(withoutVersion(previous)) === JSON.stringify(withoutVersion(entry.resource));
      const version = previous ? Number(previous.meta?.versionId ?? 1) + (same ? 0 : 1) : 1;
      clock += 1000;
      staged.set(
        key,
        same
          ? previous!
          : {
              ...entry.resource,
              meta: { ...entry.resource.meta, versionId: String(version), lastUpdated: new Date(clock).toISOString() },
            },
      );
      answers.push({ response: { status: previous ? '200 OK' : '201 Created', etag: `W/"${version}"` } });
    }
    for (const key of resources.keys()) if (!staged.has(key)) resources.delete(key);
    for (const [key, value] of staged) resources.set(key, value);
    send(res, 200, { resourceType: 'Bundle', type: 'transaction-response', entry: answers });
  }

  function search(type: string, url: URL, res: http.ServerResponse) {
    receivedSearches.push(url);
    const q = url.searchParams;
    let matches = [...resources.values()].filter((r) => r.resourceType === type);
    for (const tag of q.getAll('_tag')) {
      const [system, code] = tag.split('|');
      matches = matches.filter((r) =>
        ((r.meta?.tag as Array<{ system: string; code: string }>) ?? []).some(
          (t) => t.system === system && t.code === code,
        ),
      );
    }
    if (q.get('_id')) matches = matches.filter((r) => q.get('_id')!.split(',').includes(r.id));
    for (const value of q.getAll('_lastUpdated')) {
      const prefix = value.slice(0, 2);
      const bound = Date.parse(value.slice(2));
      matches = matches.filter((r) => {
        const t = Date.parse(String(r.meta?.lastUpdated));
        return prefix === 'ge' ? t >= bound : prefix === 'gt' ? t > bound : prefix === 'le' ? t <= bound : t < bound;
      });
    }
    const patientRef = (r: Resource) => ((r.subject ?? r.patient) as { reference?: string } | undefined)?.reference;
    if (q.get('patient')) matches = matches.filter((r) => patientRef(r) === q.get('patient'));
    if (q.get('patient:missing') === 'false') matches = matches.filter((r) => patientRef(r) !== undefined);
    matches.sort(
      (a, b) => String(a.meta?.lastUpdated).localeCompare(String(b.meta?.lastUpdated)) || a.id.localeCompare(b.id),
    );
    const count = q.get('_summary') === 'count' ? 0 : Number(q.get('_count') ?? 10);
    const offset = Number(q.get('_offset') ?? 0);
    const page = matches.slice(offset, offset + count);
    const link = [{ relation: 'self', url: url.href }];
    if (count > 0 && offset + count < matches.length) {
      const next = new URL(url.href);
      next.searchParams.set('_offset', String(offset + count));
      link.push({ relation: 'next', url: next.href });
    }
    send(res, 200, {
      resourceType: 'Bundle',
      type: 'searchset',
      total: matches.length,
      link,
      entry: page.map((resource) => ({
        fullUrl: `${baseUrl}/${type}/${resource.id}`,
        resource,
        search: { mode: 'match' },
      })),
    });
  }

  return {
    baseUrl,
    requests,
    receivedTransactions,
    receivedSearches,
    resources,
    failNext(method, status) {
      failures[method]!.push(status);
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

function withoutVersion(resource: Resource): Resource {
  const { versionId: _v, lastUpdated: _l, ...meta } = resource.meta ?? {};
  return { ...resource, meta };
}

function outcome(code: string, diagnostics: string) {
  return { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, diagnostics }] };
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/fhir+json' }).end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
