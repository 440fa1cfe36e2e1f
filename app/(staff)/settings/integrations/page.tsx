// /settings/integrations: the clinic's EMR connections over the same /api/emr-sync routes integrators use: list,
// create, add a client id, Connect (the browser OAuth round trip) and run a pull. The registration values an
// EMR asks for (redirect URI, scopes, JWKS URL) are shown from APP_URL so an admin can copy them. Admins also see
// the CDS Hooks discovery URL and the clinicians' feedback on our cards.
import { headers } from 'next/headers';
import { getDeps } from '@/lib/deps';
import { findCurrentPrincipal } from '@/lib/http/find-current-principal';
import { BROWSER_OAUTH_SCOPE, redirectUriFor } from '@/lib/emr/oauth-endpoints';
import { BACKEND_SERVICES_SCOPE } from '@/lib/emr/pull-smart-backend';
import { IntegrationsPanel } from './integrations-panel';
import { CdsFeedbackSection } from './cds-feedback-section';

export const metadata = { title: 'Integrations · Clinic Revenue Platform' };

export default async function IntegrationsPage() {
  const { appUrl } = (await getDeps()).config;
  const principal = await findCurrentPrincipal(await headers());
  return (
    <>
      <h1>Integrations</h1>
      <details className="card">
        <summary>
          <strong>Registering this app with an EMR</strong>
        </summary>
        <dl>
          <dt>Redirect URI (browser sign-in)</dt>
          <dd>
            <code data-testid="redirect-uri">{redirectUriFor(appUrl)}</code>
          </dd>
          <dt>Scopes (browser sign-in)</dt>
          <dd>
            <code>{BROWSER_OAUTH_SCOPE}</code>
          </dd>
          <dt>JWKS URL (SMART Backend Services)</dt>
          <dd>
            <code>{`${appUrl}/.well-known/jwks.json`}</code>
          </dd>
          <dt>Scopes (SMART Backend Services)</dt>
          <dd>
            <code>{BACKEND_SERVICES_SCOPE}</code>
          </dd>
        </dl>
      </details>
      <IntegrationsPanel />
      {principal?.scopes.includes('users:admin') && <CdsFeedbackSection discoveryUrl={`${appUrl}/cds-services`} />}
    </>
  );
}
