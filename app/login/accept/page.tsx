// /login/accept?token=…: an invited person sets their password (public: the link's single-use token is the
// credential), then signs in on /login.
import { Suspense } from 'react';
import { AcceptForm } from './accept-form';

export const metadata = { title: 'Set your password · Clinic Revenue Platform' };

export default function AcceptInvitationPage() {
  return (
    <main>
      <div className="card" style={{ maxWidth: '30rem', margin: '3rem auto' }}>
        <h1>Set your password</h1>
        <p className="muted">You were invited to the Clinic Revenue Platform. Choose a password to finish.</p>
        <Suspense>
          <AcceptForm />
        </Suspense>
      </div>
    </main>
  );
}
