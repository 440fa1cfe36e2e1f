// /docs: the OpenAPI document rendered inside the staff shell, server-side from the same builder that serves
// /api/openapi.json (no CDN, no client script), with a table of contents by tag so a reader jumps to one area
// instead of scrolling one long page. The machine-readable document itself stays public.
import { buildOpenApi } from '@/lib/api/build-openapi';
import { readChangelog, type ChangelogEntry } from '@/lib/changelog/read-changelog';
import { getDeps } from '@/lib/deps';

export const dynamic = 'force-dynamic';

type Operation = {
  summary?: string;
  tags?: string[];
  'x-scope'?: string | null;
  'x-step-up'?: boolean;
  'x-error-codes'?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  security?: Record<string, unknown>[];
};

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

function Schema({ schema }: { schema: unknown }) {
  if (!schema) return null;
  return (
    <details>
      <summary>Schema</summary>
      <pre className="mono" style={{ whiteSpace: 'pre-wrap', fontSize: '.85rem' }}>
        {JSON.stringify(schema, null, 2)}
      </pre>
    </details>
  );
}

function authOf(op: Operation): string {
  const kinds = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (kinds.includes('sessionCookie')) return 'staff session (cookie or bearer)';
  if (kinds.includes('cronBearer')) return 'Authorization: Bearer CRON_SECRET';
  if (kinds.includes('webhookSignature')) return 'X-Svc-Signature (HMAC-SHA256 of the raw body)';
  return 'public';
}

/** Words for each tag, in the order a clinic integrator meets them; tags not listed follow alphabetically. */
const TAG_TITLES: Record<string, string> = {
  auth: 'Sign-in, step-up and factors',
  eligibility: 'Eligibility',
  patients: 'Patients',
  appointments: 'Appointments',
  claims: 'Claims',
  remittances: 'Remittances',
  bills: 'Patient bills',
  settlement: 'Settlement',
  reconciliation: 'Reconciliation',
  'emr-sync': 'EMR sync',
  fhir: 'FHIR R4',
  webhooks: 'Webhooks',
  'webhook-endpoints': 'Webhook endpoints (events out, webhooks:admin)',
  jobs: 'Scheduled jobs',
  users: 'Users (users:admin)',
  audit: 'Audit log (users:admin)',
  clinics: 'Clinic settings',
  health: 'Health and discovery',
};

type Entry = { path: string; method: string; op: Operation };

function groupByTag(paths: Record<string, Record<string, Operation>>): [string, Entry[]][] {
  const groups = new Map<string, Entry[]>();
  for (const [path, ops] of Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)))
    for (const method of METHOD_ORDER.filter((m) => ops[m])) {
      const tag = ops[method]!.tags?.[0] ?? 'other';
      groups.set(tag, [...(groups.get(tag) ?? []), { path, method, op: ops[method]! }]);
    }
  const order = Object.keys(TAG_TITLES);
  const rank = (tag: string) => (order.includes(tag) ? order.indexOf(tag) : order.length);
  return [...groups].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

const anchorOf = (method: string, path: string) => `${method}-${path}`.replace(/[^A-Za-z0-9_-]+/g, '-');

export default async function DocsPage() {
  const doc = buildOpenApi((await getDeps()).config.appUrl) as {
    info: { title: string; description: string };
    paths: Record<string, Record<string, Operation>>;
  };
  const groups = groupByTag(doc.paths);
  const { entries: changelog } = await readChangelog();
  return (
    <div className="docs">
      <h1>{doc.info.title}</h1>
      <p>{doc.info.description}</p>
      <p>
        Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Every error body is{' '}
        <code>{'{ code, message, correlationId }'}</code>; send <code>x-correlation-id</code> to trace a request.
      </p>
      <nav aria-labelledby="docs-toc-title" className="card docs-toc">
        <h2 id="docs-toc-title">Contents</h2>
        <ul>
          {groups.map(([tag, entries]) => (
            <li key={tag}>
              <a href={`#tag-${tag}`}>{TAG_TITLES[tag] ?? tag}</a> <span className="muted">({entries.length})</span>
            </li>
          ))}
          <li>
            <a href="#changelog">Changelog</a>
          </li>
        </ul>
      </nav>
      {groups.map(([tag, entries]) => (
        <section key={tag} aria-labelledby={`tag-${tag}`} className="docs-tag">
          <h2 id={`tag-${tag}`}>{TAG_TITLES[tag] ?? tag}</h2>
          <ul className="docs-endpoints">
            {entries.map(({ path, method }) => (
              <li key={`${method} ${path}`}>
                <a href={`#${anchorOf(method, path)}`}>
                  <code>
                    {method.toUpperCase()} {path}
                  </code>
                </a>
              </li>
            ))}
          </ul>
          {entries.map(({ path, method, op }) => (
            <EndpointDoc key={`${method} ${path}`} path={path} method={method} op={op} />
          ))}
          <p>
            <a href="#docs-toc-title">Back to contents</a>
          </p>
        </section>
      ))}
      <Changelog entries={changelog} />
    </div>
  );
}

const CHANGE_KINDS = ['added', 'changed', 'deprecated', 'removed', 'fixed', 'security'] as const;

/** CHANGELOG.md, the API's living contract (also GET /api/changelog), newest first as written. */
function Changelog({ entries }: { entries: ChangelogEntry[] }) {
  return (
    <section aria-labelledby="changelog" className="docs-tag">
      <h2 id="changelog">Changelog</h2>
      <p>
        Machine-readable: {/* An API route (JSON), not a page: a plain link, no client-side navigation. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a href="/api/changelog">/api/changelog</a>. Every change of this API&apos;s surface is written here first.
      </p>
      {entries.map((entry) => (
        <article key={entry.version} className="card" aria-labelledby={`changelog-${entry.version}`}>
          <h3 id={`changelog-${entry.version}`}>
            {entry.version}
            {entry.date ? ` (${entry.date})` : ''}
          </h3>
          {CHANGE_KINDS.filter((kind) => entry[kind].length > 0).map((kind) => (
            <div key={kind}>
              <h4>{kind[0]!.toUpperCase() + kind.slice(1)}</h4>
              <ul>
                {entry[kind].map((item, i) => (
                  <li key={i}>{item}</li>
                ))}
              </ul>
            </div>
          ))}
        </article>
      ))}
      <p>
        <a href="#docs-toc-title">Back to contents</a>
      </p>
    </section>
  );
}

function EndpointDoc({ path, method, op }: Entry) {
  return (
    <article id={anchorOf(method, path)} className="card" aria-labelledby={`${anchorOf(method, path)}-title`}>
      <h3 id={`${anchorOf(method, path)}-title`} className="mono docs-op-title">
        {method.toUpperCase()} {path}
      </h3>
      <p>{op.summary}</p>
      <p className="muted">
        Auth: {authOf(op)}
        {op['x-scope'] ? (
          <>
            {' '}
            · scope <code>{op['x-scope']}</code>
          </>
        ) : null}
        {op['x-step-up'] ? <> · step-up required</> : null}
      </p>
      {op.parameters && op.parameters.length > 0 && (
        <>
          <h4>Parameters</h4>
          <ul>
            {op.parameters.map((p) => (
              <li key={`${p.in}-${p.name}`}>
                <code>{p.name}</code> ({p.in}
                {p.required ? ', required' : ''})
              </li>
            ))}
          </ul>
        </>
      )}
      {op.requestBody && (
        <>
          <h4>Request body</h4>
          {Object.entries(op.requestBody.content).map(([type, c]) => (
            <div key={type}>
              <code>{type}</code>
              <Schema schema={c.schema} />
            </div>
          ))}
        </>
      )}
      <h4>Responses</h4>
      <ul>
        {Object.entries(op.responses ?? {}).map(([status, r]) => (
          <li key={status}>
            <strong>{status}</strong> {r.description}
            {status.startsWith('2') &&
              r.content &&
              Object.values(r.content).map((c, i) => <Schema key={i} schema={c.schema} />)}
          </li>
        ))}
      </ul>
    </article>
  );
}
