// /admin/users: the clinic admin's users screen over /api/users: list, invite with scopes (only the admin's own),
// unlock, reset MFA, deactivate; each change through the step-up dialog, which says what it confirms.
import { requireAdmin, RoleRefusal } from '../require-admin';
import { UsersScreen } from './users-screen';

export const metadata = { title: 'Users · Clinic Revenue Platform' };

export default async function UsersPage() {
  const admin = await requireAdmin();
  return (
    <>
      <h1>Users</h1>
      {admin === 'refused' ? (
        <RoleRefusal />
      ) : (
        <UsersScreen ownScopes={admin.scopes} ownUserId={admin.userId} clinicName={admin.clinicName} />
      )}
    </>
  );
}
