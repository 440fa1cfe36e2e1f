// /admin/audit: the clinic's audit trail for its admin over GET /api/audit: sign-ins, step-ups, factor changes,
// user administration, money actions and PHI reads (marked), newest first, filtered by user, action and day.
import { requireAdmin, RoleRefusal } from '../require-admin';
import { AuditScreen } from './audit-screen';

export const metadata = { title: 'Audit log · Clinic Revenue Platform' };

type Search = Promise<Record<string, string | string[] | undefined>>;

const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

export default async function AuditPage({ searchParams }: { searchParams: Search }) {
  const admin = await requireAdmin();
  const params = await searchParams;
  const initial = { userId: one(params.userId), action: one(params.action), day: one(params.day) };
  return (
    <>
      <h1>Audit log</h1>
      {admin === 'refused' ? <RoleRefusal /> : <AuditScreen initial={initial} />}
    </>
  );
}
