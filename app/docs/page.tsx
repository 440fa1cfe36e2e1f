// /docs: the OpenAPI document rendered for integrators, server-side from the same builder that serves
// /api/openapi.json (no CDN, no client script). Public, like the document itself.
import { buildOpenApi } from '@/lib/api/build-openapi';
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

export default async function DocsPage() {
  const doc = buildOpenApi((await getDeps()).config.appUrl) as {
    info: { title: string; description: string };
    paths: Record<string, Record<string, Operation>>;
  };
  const entries = Object.entries(doc.paths).sort(([a], [b]) => a.localeCompare(b));
  return (
    <main>
      <h1>{doc.info.title}</h1>
      <p>{doc.info.description}</p>
      <p>
        Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Every error body is{' '}
        <code>{'{ code, message, correlationId }'}</code>; send <code>x-correlation-id</code> to trace a request.
      </p>
      <nav aria-label="Endpoints" className="card">
        <ul>
          {entries.map(([path, ops]) =>
            METHOD_ORDER.filter((m) => ops[m]).map((m) => (
              <li key={`${m} ${path}`}>
                <a href={`#${m}-${path}`}>
                  <code>
                    {m.toUpperCase()} {path}
                  </code>
                </a>{' '}
                {ops[m]!.summary}
              </li>
            )),
          )}
        </ul>
      </nav>
      {entries.map(([path, ops]) =>
        METHOD_ORDER.filter((m) => ops[m]).map((m) => {
          const op = ops[m]!;
          return (
            <section key={`${m} ${path}`} id={`${m}-${path}`} className="card">
              <h2 className="mono" style={{ fontSize: '1.1rem' }}>
                {m.toUpperCase()} {path}
              </h2>
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
                  <h3>Parameters</h3>
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
                  <h3>Request body</h3>
                  {Object.entries(op.requestBody.content).map(([type, c]) => (
                    <div key={type}>
                      <code>{type}</code>
                      <Schema schema={c.schema} />
                    </div>
                  ))}
                </>
              )}
              <h3>Responses</h3>
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
            </section>
          );
        }),
      )}
    </main>
  );
}
