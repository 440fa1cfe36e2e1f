// /login: e-mail and password, then an authentication code when the account has MFA. Errors in plain words.
import { Suspense } from 'react';
import { LoginForm } from './login-form';

export default function LoginPage() {
  return (
    <main>
      <div className="card" style={{ maxWidth: '30rem', margin: '3rem auto' }}>
        <h1>Sign in</h1>
        <p className="muted">Clinic Revenue Platform: eligibility, claims and settlement.</p>
        <Suspense>
          <LoginForm />
        </Suspense>
      </div>
    </main>
  );
}
