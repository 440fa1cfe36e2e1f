// The page for any URL the app does not have: the product's header and a way back, not the framework's bare 404.
// It renders inside the root layout only (the staff layout's session check does not run for an unknown path),
// so it names no user and links home, where a signed-out visitor is sent to sign in.
import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Page not found · Clinic Revenue Platform' };

export default function NotFound() {
  return (
    <>
      <header className="top">
        <strong>
          <Link href="/">Clinic Revenue Platform</Link>
        </strong>
      </header>
      <main>
        <h1>Page not found</h1>
        <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
        <p>
          <Link href="/">Go to the home page</Link>
        </p>
      </main>
    </>
  );
}
