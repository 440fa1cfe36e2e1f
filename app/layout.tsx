// Root layout: system fonts only, so nothing is fetched at build or run time.
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { connection } from 'next/server';
import './globals.css';

export const metadata: Metadata = {
  title: 'Clinic Revenue Platform',
  description: 'Eligibility, claims and settlement for clinic staff',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: the CSP nonce (middleware.ts) is per request, and Next stamps it on its
  // scripts only in a dynamic render. A prerendered page would carry none, and the policy would block it.
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
