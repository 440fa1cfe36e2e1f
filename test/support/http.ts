// An HTTP client for tests: a cookie jar, JSON helpers and sign-in through next-auth's real endpoints
// (GET /api/auth/csrf, then the form POST to /api/auth/callback/credentials), exactly as a browser does it.
import type { TestApp } from './app';
import { contractViolation } from './contract';

export type TestResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

export type RequestOptions = {
  json?: unknown;
  form?: Record<string, string>;
  body?: BodyInit;
  headers?: Record<string, string>;
  redirect?: RequestRedirect;
};

export class HttpClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size && !('cookie' in headers)) headers.cookie = this.cookieHeader();
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    // A streamed body (no Content-Length) needs half-duplex mode in Node's fetch.
    const streamed = typeof ReadableStream !== 'undefined' && body instanceof ReadableStream;
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      body,
      redirect: options.redirect ?? 'manual',
      ...(streamed ? { duplex: 'half' } : {}),
    } as RequestInit);
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || /max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    if (res.headers.get('content-type')?.includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (HttpClient.checkContract) {
      const violation = contractViolation(
        method,
        res.url || new URL(path, this.baseUrl).toString(),
        res.status,
        res.headers.get('content-type'),
        parsed,
      );
      if (violation) throw new Error(`Contract violation: ${violation}`);
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  /** Every response is checked against the OpenAPI document (test/support/contract.ts). */
  static checkContract = true;

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...options, json });
  }
  patch<T = any>(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PATCH', path, { ...options, json });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }

  /** The raw session token (for Authorization: Bearer tests). */
  get sessionToken(): string | undefined {
    return this.cookies.get('next-auth.session-token');
  }
}

export async function attemptSignIn(app: Pick<TestApp, 'url'>, email: string, password: string, mfaCode?: string) {
  const client = new HttpClient(app.url);
  const csrf = await client.get<{ csrfToken: string }>('/api/auth/csrf');
  const form: Record<string, string> = { csrfToken: csrf.body.csrfToken, email, password, json: 'true' };
  if (mfaCode) form.mfaCode = mfaCode;
  const response = await client.request('POST', '/api/auth/callback/credentials', { form });
  return { client, response };
}

/** Signs in and returns a client carrying the session cookie; throws with the body when sign-in fails. */
export async function signIn(
  app: Pick<TestApp, 'url'>,
  email: string,
  password = 'demo-password-1',
  mfaCode?: string,
): Promise<HttpClient> {
  const { client, response } = await attemptSignIn(app, email, password, mfaCode);
  if (response.status !== 200 || !client.sessionToken)
    throw new Error(`sign-in of ${email} failed: ${response.status} ${response.text}`);
  return client;
}
