// /settings/webhooks: the clinic's outbound webhook endpoints for a holder of webhooks:admin (DECISIONS "Events
// out"): register, the signing secret shown once, recent deliveries with re-send, a test event, rotation and the
// notice when the dispatcher disabled an endpoint. Every change goes through the step-up dialog.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { findCurrentPrincipal } from '@/lib/http/find-current-principal';
import { RoleRefusal } from '../../admin/require-admin';
import { WebhooksScreen } from './webhooks-screen';

export const metadata = { title: 'Webhooks · Clinic Revenue Platform' };

export default async function WebhooksPage() {
  const principal = await findCurrentPrincipal(await headers());
  if (!principal) redirect('/login');
  return (
    <>
      <h1>Webhooks</h1>
      {principal.scopes.includes('webhooks:admin') ? <WebhooksScreen /> : <RoleRefusal />}
    </>
  );
}
