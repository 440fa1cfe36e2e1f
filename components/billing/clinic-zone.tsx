'use client';
// The clinic's IANA time zone for the billing screens' client components: the page (a server component) reads
// it with the principal and wraps its screen in <ClinicZone>; formatters take it from useClinicZone().
import { createContext, useContext, type ReactNode } from 'react';
import { formatDate, formatDateTime } from './format';

const ZoneContext = createContext<string | undefined>(undefined);

export function ClinicZone({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <ZoneContext.Provider value={timeZone}>{children}</ZoneContext.Provider>;
}

/** The clinic's zone, or undefined (the browser's) outside a <ClinicZone>. */
export function useClinicZone(): string | undefined {
  return useContext(ZoneContext);
}

/** The date formatters of components/billing/format.ts, bound to the clinic's zone. */
export function useDateFormat() {
  const zone = useClinicZone();
  return {
    date: (value: string | null | undefined) => formatDate(value, zone),
    dateTime: (value: string | null | undefined) => formatDateTime(value, zone),
  };
}
