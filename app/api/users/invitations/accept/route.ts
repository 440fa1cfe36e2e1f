// POST /api/users/invitations/accept: the invitee sets a password with the invitation link's token (public).
import { route } from '@/lib/http/route';
import { acceptInvitationEndpoint } from '@/lib/users/endpoints';
import { acceptInvitation } from '@/lib/users/accept-invitation';

export const POST = route(acceptInvitationEndpoint, ({ body, correlationId, deps }) =>
  acceptInvitation(deps, { ...body, correlationId }),
);
