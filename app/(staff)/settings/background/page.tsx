// /settings/background: the clinic's background work for its admin over GET /api/jobs: the schedules that run for
// the clinic (last and next run, on the clinic's clock), recent jobs, and dead letters with their reason and a retry.
import { requireAdmin, RoleRefusal } from '../../admin/require-admin';
import { BackgroundScreen } from './background-screen';

export const metadata = { title: 'Background work · Clinic Revenue Platform' };

export default async function BackgroundWorkPage() {
  const admin = await requireAdmin();
  return (
    <>
      <h1>Background work</h1>
      {admin === 'refused' ? <RoleRefusal /> : <BackgroundScreen />}
    </>
  );
}
