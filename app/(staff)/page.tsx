// Home: the staff screens, each over the same /api routes integrators use.
import Link from 'next/link';

const SCREENS = [
  { href: '/eligibility/roster', title: 'Eligibility roster', text: "Check coverage for a day's appointments." },
  {
    href: '/eligibility/verify',
    title: 'Verify one patient',
    text: 'A real-time 270/271 check with the evidence behind each number.',
  },
  { href: '/settings/integrations', title: 'Integrations', text: 'EMR connections, OAuth and FHIR pulls.' },
  { href: '/settings/security', title: 'Security', text: 'MFA, backup codes and passkeys.' },
  { href: '/docs', title: 'API documentation', text: 'The OpenAPI document for integrators.' },
];

export default function HomePage() {
  return (
    <>
      <h1>Welcome</h1>
      <ul style={{ listStyle: 'none', padding: 0 }}>
        {SCREENS.map((s) => (
          <li key={s.href} className="card">
            <Link href={s.href}>
              <strong>{s.title}</strong>
            </Link>
            <div className="muted">{s.text}</div>
          </li>
        ))}
      </ul>
    </>
  );
}
