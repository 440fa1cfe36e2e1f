// Browser helpers over next-auth's endpoints: the CSRF token, sign-in (json=true, our error bodies) and sign-out.
export type ApiError = { code: string; message: string; correlationId?: string; issues?: { path: string; message: string }[] };

export async function fetchCsrfToken(): Promise<string> {
  const res = await fetch('/api/auth/csrf', { cache: 'no-store' });
  const body = (await res.json()) as { csrfToken: string };
  return body.csrfToken;
}

export async function signInWithPassword(input: { email: string; password: string; mfaCode?: string }):
  Promise<{ ok: true } | { ok: false; status: number; error: ApiError; retryAfterSeconds?: number }> {
  const form = new URLSearchParams({ csrfToken: await fetchCsrfToken(), email: input.email, password: input.password, json: 'true' });
  if (input.mfaCode) form.set('mfaCode', input.mfaCode);
  const res = await fetch('/api/auth/callback/credentials', { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  if (res.ok) return { ok: true };
  const error = (await res.json().catch(() => ({ code: 'INTERNAL_ERROR', message: 'Sign-in failed' }))) as ApiError;
  const retry = res.headers.get('retry-after');
  return { ok: false, status: res.status, error, retryAfterSeconds: retry ? Number(retry) : undefined };
}

export async function signOut(): Promise<void> {
  const form = new URLSearchParams({ csrfToken: await fetchCsrfToken(), json: 'true' });
  await fetch('/api/auth/signout', { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}
