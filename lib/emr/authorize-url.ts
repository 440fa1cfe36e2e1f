// Builds the SMART App Launch v2 authorization request URL (the browser redirect to the vendor consent screen).
// Does not mint state or PKCE values (see pkce.ts) and does not store them.

export type AuthorizeUrlInput = {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string;
  codeChallenge: string;
  /** The FHIR base URL the token is for; SMART App Launch v2 section 2.1.5 requires it (audience binding). */
  aud: string;
};

/** Throws Error when a value is empty or the endpoint is not an absolute URL: those are programming errors. */
export function buildAuthorizeUrl(input: AuthorizeUrlInput): string {
  for (const [name, value] of Object.entries(input)) {
    if (typeof value !== 'string' || value.length === 0) throw new Error(`buildAuthorizeUrl: ${name} is required`);
  }
  // RFC 6749 section 3.1: the endpoint may carry its own query, which must be kept; ours are set over it.
  const url = new URL(input.authorizationEndpoint);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    scope: input.scope,
    state: input.state,
    aud: input.aud,
    code_challenge: input.codeChallenge,
    // SMART App Launch v2 mandates S256 (section 2.1.9); plain is never sent.
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}
