// The billing screens' date formatters, in the clinic's time zone (the staff layout provides it; see
// components/clinic-time.tsx). A missing value shows as a dash.
import { useClinicTime } from '@/components/clinic-time';

export function useDateFormat() {
  const clinic = useClinicTime();
  return {
    date: (value: string | null | undefined) => (value ? clinic.date(value) : '—'),
    dateTime: (value: string | null | undefined) => (value ? clinic.dateTime(value) : '—'),
  };
}
