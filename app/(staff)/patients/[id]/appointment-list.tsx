// A patient's appointments under a title, in the clinic's time, each past or today's visit with a way to bill it.
import Link from 'next/link';
import type { PatientDetail } from '@/lib/patients/get-patient';
import { useClinicTime } from '@/components/clinic-time';

/**
 * With claims:write, each visit up to the clinic's today offers "Bill this visit": the claim editor filled from the
 * appointment. A visit on a later day has nothing to bill yet (the scrubber refuses a future date of service).
 */
export function AppointmentList({
  title,
  items,
  canBill,
}: {
  title: string;
  items: PatientDetail['appointments'];
  canBill: boolean;
}) {
  const clock = useClinicTime();
  if (!items.length) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul className="fd-plain-list">
        {items.map((a) => (
          <li key={a.id}>
            {clock.date(a.start)}, {clock.time(a.start)}
            {a.reason ? ` · ${a.reason}` : ''}
            {a.providerName ? <span className="muted"> · {a.providerName}</span> : null}
            {canBill && clock.dateOf(a.start) <= clock.today() ? (
              <>
                {' · '}
                <Link href={`/claims/new?appointmentId=${encodeURIComponent(a.id)}`}>Bill this visit</Link>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
