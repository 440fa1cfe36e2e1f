// /sandbox-ehr/authorize: the sandbox EHR's authorization page (sandbox only; 404 in production). The signed-in
// staff user sees which client asks for which scopes, picks one of their clinic's synthetic patients as the
// launch/patient context, and approves or denies; the form posts to /api/sandbox-ehr/authorize, which redirects
// back to the client. A request with a wrong client or redirect_uri is shown here, never redirected.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { getDeps } from '@/lib/deps';
import { findCurrentPrincipal } from '@/lib/http/find-current-principal';
import { AuthorizeRequest, checkAuthorizeRequest } from '@/lib/sandbox-ehr/authorize-request';
import type { FhirResource } from '@/lib/fhir/types';
import { clinicRecords } from '@/lib/sandbox-ehr/synthetic-records';

export const dynamic = 'force-dynamic';

// The staff pages' Referrer-Policy no-referrer makes a browser send `Origin: null` with a form POST, which our CSRF
// check refuses; same-origin keeps the Origin on this page's one same-origin form and still sends nothing elsewhere.
export const metadata: Metadata = { referrer: 'same-origin' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const FORWARDED = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'aud',
  'code_challenge',
  'code_challenge_method',
] as const;

function nameOf(patient: FhirResource): string {
  const [name] = (patient.name as Array<{ given?: string[]; family?: string }> | undefined) ?? [];
  return [...(name?.given ?? []), name?.family].filter(Boolean).join(' ');
}

export default async function SandboxAuthorizePage({ searchParams }: { searchParams: SearchParams }) {
  const deps = await getDeps();
  if (deps.config.mode !== 'sandbox') notFound();
  const raw = await searchParams;
  const params = Object.fromEntries(
    FORWARDED.map((name) => [name, typeof raw[name] === 'string' ? raw[name] : undefined]),
  );
  const principal = await findCurrentPrincipal(await headers());
  if (!principal) {
    const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1]));
    redirect(`/login?callbackUrl=${encodeURIComponent(`/sandbox-ehr/authorize?${query}`)}`);
  }
  const parsed = AuthorizeRequest.safeParse(params);
  const checked = parsed.success
    ? checkAuthorizeRequest(deps.config, parsed.data)
    : { ok: false as const, message: 'The authorization request is malformed' };
  const patients = clinicRecords(principal.clinicId).byType.Patient;

  return (
    <main className="sandbox-ehr">
      <div className="card">
        <p className="muted">Sandbox EHR · synthetic data only</p>
        <h1>Authorize an application</h1>
        {!checked.ok ? (
          <p className="error" role="alert">
            {checked.message}
          </p>
        ) : (
          <form method="post" action="/api/sandbox-ehr/authorize">
            <p>
              The application <code>{checked.clientId}</code> asks for access to {principal.clinicName}&apos;s records
              as <strong>{principal.email}</strong>.
            </p>
            <h2>Requested scopes</h2>
            <ul aria-label="Requested scopes">
              {checked.scope.split(' ').map((scope) => (
                <li key={scope}>
                  <code>{scope}</code>
                </li>
              ))}
            </ul>
            {FORWARDED.map((name) =>
              params[name] ? <input key={name} type="hidden" name={name} value={params[name]} /> : null,
            )}
            <fieldset>
              <legend>Patient in context (launch/patient)</legend>
              {patients.map((patient, i) => (
                <label key={patient.id} className="sandbox-ehr-patient">
                  <input type="radio" name="patient" value={patient.id} defaultChecked={i === 0} required />
                  {nameOf(patient)} <span className="muted mono">{patient.id}</span>
                </label>
              ))}
            </fieldset>
            <div className="row">
              <button type="submit" name="decision" value="approve">
                Approve
              </button>
              <button type="submit" name="decision" value="deny" className="secondary" formNoValidate>
                Deny
              </button>
            </div>
          </form>
        )}
      </div>
    </main>
  );
}
