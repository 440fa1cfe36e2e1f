// Root layout: system fonts only, so nothing is fetched at build or run time.
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = { title: 'Clinic Revenue Platform', description: 'Eligibility, claims and settlement for clinic staff' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
