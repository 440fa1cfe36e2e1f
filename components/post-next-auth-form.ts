// Posts a form to one of next-auth's own endpoints (sign-in, sign-out) the way its client does: with the CSRF
// token next-auth hands out, and json=true so it answers `{ url }` instead of redirecting. A failed sign-in
// answers our error body (lib/auth/next-auth.ts reshapes it), so apiFetch throws it as an ApiError.
import { apiFetch } from './api-fetch';

type NextAuthAction = 'callback/credentials' | 'signout';

export async function postNextAuthForm(
  action: NextAuthAction,
  fields: Record<string, string> = {},
): Promise<{ url: string }> {
  const { csrfToken } = await apiFetch<{ csrfToken: string }>('/api/auth/csrf');
  // Never a step-up: these endpoints decide who is signed in, they do not act for someone already signed in.
  return apiFetch<{ url: string }>(`/api/auth/${action}`, {
    method: 'POST',
    form: { ...fields, csrfToken, json: 'true' },
    stepUp: false,
  });
}
